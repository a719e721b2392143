import { createHash, randomBytes } from "node:crypto"

import type { Network } from "./types"

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

const hex = (bytes: number): string => randomBytes(bytes).toString("hex")

/** BIP173's checksum over 5-bit values. */
function bech32Polymod(values: readonly number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
  let checksum = 1
  for (const value of values) {
    const top = checksum >>> 25
    checksum = ((checksum & 0x1ffffff) << 5) ^ value
    for (let i = 0; i < 5; i += 1) {
      if ((top >>> i) & 1) checksum ^= generators[i]
    }
  }
  return checksum
}

/**
 * A version-0 segwit address of `hrp` ("bc", "tb", "ltc") for a random 20-byte program (P2WPKH),
 * with its bech32 checksum (BIP173): wallets and address checks accept it, though nobody holds
 * its key.
 */
function segwitAddress(hrp: string): string {
  const data = [0]
  let accumulator = 0
  let bits = 0
  for (const byte of randomBytes(20)) {
    accumulator = ((accumulator << 8) | byte) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      data.push((accumulator >>> bits) & 31)
    }
  }
  if (bits > 0) data.push((accumulator << (5 - bits)) & 31)
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)]
  const polymod = bech32Polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31)
  return `${hrp}1${[...data, ...checksum].map((value) => BECH32[value]).join("")}`
}

/** Base58Check of `payload` (version byte first): the payload and 4 bytes of its double SHA-256. */
function base58Check(payload: Buffer): string {
  const checksum = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest().subarray(0, 4)
  const bytes = Buffer.concat([payload, checksum])
  let number = BigInt(`0x${bytes.toString("hex")}`)
  let out = ""
  while (number > 0n) {
    out = BASE58[Number(number % 58n)] + out
    number /= 58n
  }
  for (const byte of bytes) {
    if (byte !== 0) break
    out = `1${out}`
  }
  return out
}

/** A Tron address: Base58Check of version 0x41 and a random 20-byte account (34 characters, `T…`). */
const tronAddress = (): string => base58Check(Buffer.concat([Buffer.from([0x41]), randomBytes(20)]))

/**
 * Identifiers and chain data that look like the real thing. Addresses carry valid checksums
 * (bech32, Base58Check; Ethereum in lower case, which carries none), so a wallet or an address
 * check takes them; ids and transaction hashes are formats only.
 */
export const ids = {
  invoice: (): string => `INV-${hex(8).toUpperCase()}`,
  withdrawal: (): string => `WD-${hex(8).toUpperCase()}`,
  payIn: (): string => `PI-${hex(8).toUpperCase()}`,
  cashIn: (): string => `CI-${hex(8).toUpperCase()}`,
  exchange: (): string => `EX-${hex(8).toUpperCase()}`,
  delivery: (): string => `cb_${hex(6)}`,
  txid(network: Network): string {
    return network === "ethereum" ? `0x${hex(32)}` : hex(32)
  },
  address(network: Network): string {
    switch (network) {
      case "bitcoin":
        return segwitAddress("bc")
      case "bitcoin-testnet":
        return segwitAddress("tb")
      case "litecoin":
        return segwitAddress("ltc")
      case "ethereum":
        return `0x${hex(20)}`
      case "tron":
        return tronAddress()
    }
  },
}

const ADDRESS_PATTERNS: Record<Network, RegExp> = {
  bitcoin: /^(?:bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  "bitcoin-testnet": /^(?:tb1[02-9ac-hj-np-z]{11,71}|[mn2][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  litecoin: /^(?:ltc1[02-9ac-hj-np-z]{11,71}|[LM3][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  ethereum: /^0x[0-9a-fA-F]{40}$/,
  tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
}

/** Shape check of a destination address (the sandbox does not verify checksums). */
export function isValidAddress(network: Network, address: string): boolean {
  return ADDRESS_PATTERNS[network].test(address)
}
