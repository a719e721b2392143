import { ids, isValidAddress } from "../core/ids"
import { validateCryptoAddress } from "../../storefront/lib/addresses"
import type { Network } from "../core/types"

// The sandbox's deposit and invoice addresses, checked by the storefront kit's own address check (an
// implementation written apart from the sandbox's): a wallet or a refund form takes them.
const COINS: Array<[Network, string]> = [
  ["bitcoin", "BTC"],
  ["litecoin", "LTC"],
  ["tron", "TRX"],
  ["ethereum", "ETH"],
]

describe("sandbox addresses carry valid checksums", () => {
  it.each(COINS)("every %s address passes its network's check (bech32, Base58Check, shape)", (network, coin) => {
    for (let i = 0; i < 200; i += 1) {
      const address = ids.address(network)
      expect({ address, check: validateCryptoAddress(coin, address) }).toEqual({ address, check: { valid: true } })
      expect(isValidAddress(network, address)).toBe(true)
    }
  })

  it("gives the shapes wallets show: bc1q…/ltc1q… (42/43 characters), T… (34)", () => {
    expect(ids.address("bitcoin")).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/)
    expect(ids.address("litecoin")).toMatch(/^ltc1q[02-9ac-hj-np-z]{38}$/)
    expect(ids.address("bitcoin-testnet")).toMatch(/^tb1q[02-9ac-hj-np-z]{38}$/)
    expect(ids.address("tron")).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
  })

  it("a changed character breaks the checksum", () => {
    const address = ids.address("litecoin")
    const last = address.at(-1) === "q" ? "p" : "q"
    expect(validateCryptoAddress("LTC", `${address.slice(0, -1)}${last}`)).toMatchObject({ valid: false })
  })
})
