import { randomBytes } from "node:crypto"

import type { Network } from "./types"

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

function pick(alphabet: string, length: number): string {
  const bytes = randomBytes(length)
  let out = ""
  for (const byte of bytes) {
    out += alphabet[byte % alphabet.length]
  }
  return out
}

const hex = (bytes: number): string => randomBytes(bytes).toString("hex")

/** Identifiers and chain data that look like the real thing (formats only, no valid checksums). */
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
        return `bc1q${pick(BECH32, 38)}`
      case "bitcoin-testnet":
        return `tb1q${pick(BECH32, 38)}`
      case "litecoin":
        return `ltc1q${pick(BECH32, 38)}`
      case "ethereum":
        return `0x${hex(20)}`
      case "tron":
        return `T${pick(BASE58, 33)}`
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
