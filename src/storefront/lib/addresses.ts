import { coinNetworkOf, EVM_ADDRESS, WALLET_NETWORKS, type WalletNetworkId } from "./wallet-networks.js"

/**
 * Is this a receiving address of the coin's network? Used where the shopper types an address the
 * shop sends money to (a refund they claim: docs/money-out.md, "Refunds the shopper claims"). The
 * answer that matters most is `network`: the address is clearly of another network (an Ethereum
 * address for USDT on TRON), and money sent across networks is lost.
 *
 * What is checked, per network (all in `ADDRESS_FORMATS`; which coin ids are on which network, and
 * the networks' names, are the network table's, lib/wallet-networks.ts):
 * - Base58Check (version byte and double SHA-256 checksum): legacy BTC, LTC, BCH, DOGE, DASH, and TRON.
 * - Bech32 / Bech32m checksum and witness program (BIP173, BIP350): BTC `bc1`, LTC `ltc1`. Only
 *   version 0 (20 or 32 bytes) and version 1 (Taproot, 32 bytes): what wallets give out today.
 * - CashAddr checksum: BCH, with or without the `bitcoincash:` prefix.
 * - Shape only: EVM networks (`0x` and 40 hex digits; the EIP-55 mixed-case checksum needs
 *   Keccak-256 and is not checked), Solana (base58 of exactly 32 bytes), Monero (95 or 106 base58
 *   characters; its checksum needs Keccak-256 too).
 * A network not in the table accepts any 16 to 128 characters of `A-Z a-z 0-9 : _ -`: the kit
 * cannot tell, so the store and the gateway decide.
 *
 * Pure and synchronous, no imports from Node: SHA-256 is the small implementation below, so it
 * runs in the shopper's browser as it types.
 */

export type AddressRefusal = "empty" | "format" | "network"

export type CryptoAddressValidation =
  | { valid: true }
  | { valid: false; reason: "empty" | "format" }
  /** The address is of another network in the table: `network` names it (a key of `ADDRESS_FORMATS`). */
  | { valid: false; reason: "network"; network: AddressNetwork }

/** True when `address` (trimmed, non-empty, at most 128 characters) is an address of the network. */
type AddressFormat = (address: string) => boolean

const isEvm = (address: string): boolean => EVM_ADDRESS.test(address)

/**
 * The address formats, one row per network of the network table that has one, in the order a
 * foreign address is matched against them (the first match names the network the address is of).
 * EVM chains share one format, so an Ethereum address is a valid BNB Smart Chain address and the
 * other way round.
 */
const ADDRESS_FORMATS = {
  BTC: (a) => base58Version(a, [0x00, 0x05]) || segwit(a, "bc"),
  BTC_TEST: (a) => base58Version(a, [0x6f, 0xc4]) || segwit(a, "tb"),
  // 0x05 ("3…") is Litecoin's old P2SH version, the same as Bitcoin's; wallets still show such addresses.
  LTC: (a) => base58Version(a, [0x30, 0x32, 0x05]) || segwit(a, "ltc"),
  BCH: (a) => cashAddr(a) || base58Version(a, [0x00, 0x05]),
  DOGE: (a) => base58Version(a, [0x1e, 0x16]),
  DASH: (a) => base58Version(a, [0x4c, 0x10]),
  ETH: isEvm,
  BSC: isEvm,
  POLYGON: isEvm,
  ARBITRUM: isEvm,
  OPTIMISM: isEvm,
  BASE: isEvm,
  AVALANCHE: isEvm,
  TRON: (a) => base58Version(a, [0x41]),
  SOL: (a) => SOLANA_SHAPE.test(a) && base58Decode(a)?.length === 32,
  XMR: (a) => MONERO_SHAPE.test(a),
} as const satisfies Partial<Record<WalletNetworkId, AddressFormat>>

/** A network of the address table: "BTC", "ETH", "BSC", "TRON", "SOL", … */
export type AddressNetwork = keyof typeof ADDRESS_FORMATS

const NETWORKS = Object.keys(ADDRESS_FORMATS) as AddressNetwork[]

/** Any network not in the table: letters, digits, `:`, `_` and `-`, 16 to 128 of them. */
const UNKNOWN_NETWORK_ADDRESS = /^[A-Za-z0-9:_-]{16,128}$/
/** No address in the table is longer (Monero's integrated ones are 106). */
const MAX_LENGTH = 128

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const SOLANA_SHAPE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
/** Standard (4…) and subaddress (8…) are 95 characters; integrated (4…) 106. */
const MONERO_SHAPE = /^(?:[48][1-9A-HJ-NP-Za-km-z]{94}|4[1-9A-HJ-NP-Za-km-z]{105})$/

/**
 * The network of a coin id, as the network table finds it (lib/wallet-networks.ts: its own coin
 * "BTC", "TRX", or a token's suffix "USDT_TRX" → TRON); `null` when the address table has no row for it.
 */
export function addressNetworkOf(psysCid: string): AddressNetwork | null {
  const place = coinNetworkOf(psysCid)
  return place !== null && isAddressNetwork(place.id) ? place.id : null
}

/** A network's name for a shopper, from the network table: "TRON", "Arbitrum One". */
export function addressNetworkName(network: AddressNetwork): string {
  return WALLET_NETWORKS[network].name
}

function isAddressNetwork(id: WalletNetworkId): id is AddressNetwork {
  return id in ADDRESS_FORMATS
}

/**
 * Whether `address` can receive `psysCid`. Surrounding spaces are ignored (the caller sends the
 * trimmed address). `reason`: `empty` (nothing entered), `network` (an address of another network
 * of the table, named in `network`), `format` (anything else: a typo, a checksum that does not
 * match, a truncated copy).
 */
export function validateCryptoAddress(psysCid: string, address: string): CryptoAddressValidation {
  const text = address.trim()
  if (text === "") return { valid: false, reason: "empty" }
  const own = addressNetworkOf(psysCid)
  if (own === null) {
    return UNKNOWN_NETWORK_ADDRESS.test(text) ? { valid: true } : { valid: false, reason: "format" }
  }
  if (text.length > MAX_LENGTH) return { valid: false, reason: "format" }
  if (ADDRESS_FORMATS[own](text)) return { valid: true }
  const other = NETWORKS.find((network) => network !== own && ADDRESS_FORMATS[network](text))
  return other !== undefined ? { valid: false, reason: "network", network: other } : { valid: false, reason: "format" }
}

// --- Base58Check -------------------------------------------------------------------------------------

/** Base58 to bytes (leading "1"s are zero bytes); `null` for a character outside the alphabet. */
function base58Decode(text: string): Uint8Array | null {
  const bytes: number[] = []
  for (const char of text) {
    let carry = BASE58.indexOf(char)
    if (carry < 0) return null
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] ?? 0) * 58
      bytes[i] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  for (const char of text) {
    if (char !== "1") break
    bytes.push(0)
  }
  return Uint8Array.from(bytes.reverse())
}

/** A Base58Check address of 21 bytes (version + 20-byte hash) whose version is one of `versions`. */
function base58Version(address: string, versions: readonly number[]): boolean {
  if (address.length < 25 || address.length > 35) return false
  const bytes = base58Decode(address)
  if (bytes === null || bytes.length !== 25 || !versions.includes(bytes[0] ?? -1)) return false
  const checksum = sha256(sha256(bytes.subarray(0, 21)))
  return bytes[21] === checksum[0] && bytes[22] === checksum[1] && bytes[23] === checksum[2] && bytes[24] === checksum[3]
}

// --- Bech32 (BIP173) / Bech32m (BIP350) and CashAddr ----------------------------------------------------

const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BECH32_CONSTANT = 1
const BECH32M_CONSTANT = 0x2bc830a3
const BECH32_GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

function bech32Polymod(values: readonly number[]): number {
  let check = 1
  for (const value of values) {
    const top = check >>> 25
    check = ((check & 0x1ffffff) << 5) ^ value
    BECH32_GENERATORS.forEach((generator, bit) => {
      if ((top >>> bit) & 1) check ^= generator
    })
  }
  return check
}

/** The 5-bit values of a lower-case bech32 data part; `null` for a character outside the charset. */
function bech32Values(data: string): number[] | null {
  const values: number[] = []
  for (const char of data) {
    const value = BECH32_CHARSET.indexOf(char)
    if (value < 0) return null
    values.push(value)
  }
  return values
}

/** Regroups 5-bit values into bytes; `null` when the padding is not zero bits of less than 5. */
function fiveToEight(values: readonly number[]): number[] | null {
  let accumulator = 0
  let bits = 0
  const bytes: number[] = []
  for (const value of values) {
    accumulator = (accumulator << 5) | value
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((accumulator >>> bits) & 0xff)
    }
  }
  return bits >= 5 || ((accumulator << (8 - bits)) & 0xff) !== 0 ? null : bytes
}

/** A segwit address of `hrp`: version 0 with a 20- or 32-byte program (bech32), or version 1 with 32 (bech32m). */
function segwit(address: string, hrp: string): boolean {
  const lower = address.toLowerCase()
  if (address.length > 90 || (address !== lower && address !== address.toUpperCase())) return false
  const separator = lower.lastIndexOf("1")
  if (separator < 1 || lower.slice(0, separator) !== hrp) return false
  const values = bech32Values(lower.slice(separator + 1))
  if (values === null || values.length < 7) return false
  const expanded = [...hrp].map((char) => char.charCodeAt(0) >> 5).concat([0], [...hrp].map((char) => char.charCodeAt(0) & 31))
  const version = values[0]
  const program = fiveToEight(values.slice(1, -6))
  if (program === null) return false
  const constant = bech32Polymod([...expanded, ...values])
  if (version === 0) return constant === BECH32_CONSTANT && (program.length === 20 || program.length === 32)
  return version === 1 && constant === BECH32M_CONSTANT && program.length === 32
}

const CASHADDR_PREFIX = "bitcoincash"
const CASHADDR_GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n]

/** A CashAddr P2PKH (q…) or P2SH (p…) address of a 20-byte hash, with or without `bitcoincash:`. */
function cashAddr(address: string): boolean {
  const lower = address.toLowerCase()
  if (address !== lower && address !== address.toUpperCase()) return false
  const payload = lower.startsWith(`${CASHADDR_PREFIX}:`) ? lower.slice(CASHADDR_PREFIX.length + 1) : lower
  if (!/^[qp][qpzry9x8gf2tvdw0s3jn54khce6mua7l]{41}$/.test(payload)) return false
  const values = bech32Values(payload)
  if (values === null) return false
  let check = 1n
  for (const value of [...[...CASHADDR_PREFIX].map((char) => char.charCodeAt(0) & 31), 0, ...values]) {
    const top = check >> 35n
    check = ((check & 0x07ffffffffn) << 5n) ^ BigInt(value)
    CASHADDR_GENERATORS.forEach((generator, bit) => {
      if ((top >> BigInt(bit)) & 1n) check ^= generator
    })
  }
  return check === 1n
}

// --- SHA-256 (FIPS 180-4), for Base58Check -------------------------------------------------------------

const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

/** SHA-256 of a short message (an address payload), synchronously: Web Crypto's digest is async only. */
function sha256(message: Uint8Array): Uint8Array {
  const padded = new Uint8Array(((message.length + 9 + 63) >> 6) << 6)
  padded.set(message)
  padded[message.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 4, message.length * 8)
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]
      const y = w[i - 2]
      w[i] = w[i - 16] + (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + w[i - 7] + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10))
    }
    let [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = hash
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i]) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      h = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    ;[a, b, c, d, e, f, g, h].forEach((value, i) => {
      hash[i] = hash[i] + value
    })
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  hash.forEach((value, i) => outView.setUint32(i * 4, value))
  return out
}
