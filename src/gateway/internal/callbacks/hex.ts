/**
 * The one hexadecimal reader of the callback codec: percent escapes of form bodies, `\uXXXX`
 * escapes of JSON strings, and the 40 hex digits of `verify_hash` (spec §6.3) all go through
 * `hexDigit`.
 */

/** The value of one ASCII hex digit (either case), or -1 for any other code. */
export function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (code >= 0x61 && code <= 0x66) return code - 0x57
  if (code >= 0x41 && code <= 0x46) return code - 0x37
  return -1
}

/** Bytes of an HMAC-SHA1 digest; `verify_hash` writes them as twice as many hex digits. */
const DIGEST_BYTES = 20

/** The 20 bytes of a 40-hex-digit `verify_hash` (either case); undefined for any other text. */
export function digestOfHex(value: string): Buffer | undefined {
  if (value.length !== 2 * DIGEST_BYTES) return undefined
  const digest = Buffer.allocUnsafe(DIGEST_BYTES)
  for (let i = 0; i < DIGEST_BYTES; i++) {
    const high = hexDigit(value.charCodeAt(2 * i))
    const low = hexDigit(value.charCodeAt(2 * i + 1))
    if (high < 0 || low < 0) return undefined
    digest[i] = high * 16 + low
  }
  return digest
}
