import { validateCryptoAddress } from "../index"

/**
 * One valid and one invalid address per network of the address table (src/storefront/lib/addresses.ts),
 * with well-known public addresses: the Bitcoin genesis address, BIP173/BIP350 test vectors, the
 * CashAddr spec's example, the Ethereum Foundation's address, the USDT contract on Tron, the USDC
 * and wrapped-SOL mints on Solana, the Monero general fund.
 */
describe("validateCryptoAddress", () => {
  const table: Array<[network: string, psysCid: string, valid: string, invalid: string]> = [
    ["Bitcoin, legacy P2PKH", "BTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"],
    ["Bitcoin, P2SH", "BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz"],
    ["Bitcoin, segwit v0", "BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"],
    ["Bitcoin, Taproot", "BTC", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj1"],
    ["Litecoin, legacy", "LTC", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8"],
    ["Litecoin, segwit", "LTC", "ltc1qxtm55gultqzhqzl2p3ks50hg2478y3hehuj6dz", "ltc1qxtm55gultqzhqzl2p3ks50hg2478y3hehuj6dx"],
    ["Bitcoin Cash, CashAddr with prefix", "BCH", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b"],
    ["Bitcoin Cash, CashAddr without prefix", "BCH", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6"],
    ["Bitcoin Cash, legacy", "BCH", "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu", "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggv"],
    ["Dogecoin", "DOGE", "DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSU", "DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSu"],
    ["Dash", "DASH", "Xx4dYKgz3Zcv6kheaqog3fynaKWjbahb6b", "Xx4dYKgz3Zcv6kheaqog3fynaKWjbahb6c"],
    ["Ethereum", "ETH", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BA"],
    ["an ERC-20 token", "USDT_ETH", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", "de0B295669a9FD93d5F28D9Ec85E40f4cb697BAe"],
    ["BNB Smart Chain", "BNB", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAg"],
    ["a BEP-20 token", "USDT_BSC", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", "0x"],
    ["Tron", "TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T"],
    ["a TRC-20 token", "USDT_TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj"],
    ["Solana", "SOL", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTD0lv"],
    ["an SPL token", "USDC_SOL", "So11111111111111111111111111111111111111112", "So1111111111111111111111111111111"],
    [
      "Monero",
      "XMR",
      "44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A",
      "44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3",
    ],
    ["a network the kit does not know (any 16 to 128 letters, digits, : _ -)", "TON", "EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2", "EQD tFpEwcFAEcRe5mLVh2N6C0x"],
  ]

  it.each(table)("accepts an address of %s (%s)", (_network, psysCid, valid) => {
    expect(validateCryptoAddress(psysCid, valid)).toEqual({ valid: true })
  })

  it.each(table)("refuses a mistyped or cut address of %s (%s) as format", (_network, psysCid, _valid, invalid) => {
    expect(validateCryptoAddress(psysCid, invalid)).toEqual({ valid: false, reason: "format" })
  })

  it("names the network of an Ethereum address given for USDT on Tron", () => {
    expect(validateCryptoAddress("USDT_TRX", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toEqual({ valid: false, reason: "network", network: "ETH" })
  })

  it("names the network of a Tron address given for USDT on Ethereum", () => {
    expect(validateCryptoAddress("USDT_ETH", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toEqual({ valid: false, reason: "network", network: "TRON" })
  })

  it("names Bitcoin for a Bitcoin address given for Litecoin, and Bitcoin Cash for a CashAddr given for Bitcoin", () => {
    expect(validateCryptoAddress("LTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toEqual({ valid: false, reason: "network", network: "BTC" })
    expect(validateCryptoAddress("BTC", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a")).toEqual({ valid: false, reason: "network", network: "BCH" })
  })

  it("accepts an Ethereum address on BNB Smart Chain: the EVM networks share one address format", () => {
    expect(validateCryptoAddress("USDT_BSC", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toEqual({ valid: true })
  })

  it("says empty for nothing or spaces, and ignores spaces around an address", () => {
    expect(validateCryptoAddress("BTC", "   ")).toEqual({ valid: false, reason: "empty" })
    expect(validateCryptoAddress("BTC", "  bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4 ")).toEqual({ valid: true })
  })

  it("refuses a segwit address in mixed case, as BIP173 does", () => {
    expect(validateCryptoAddress("BTC", "bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toEqual({ valid: false, reason: "format" })
  })
})
