/**
 * Decoding byte ranges of a callback body cheaply (verifyCallback's cost is measured against one
 * HMAC, docs/gateway-readings.md#callback-verification-cost, so each call on the hot path counts).
 *
 * Buffer.prototype.latin1Slice and utf8Slice are what `toString(encoding, start, end)` calls after
 * normalizing its arguments. They are in every Node release since v6 but not documented, so they
 * are used only when present; callers give offsets already within the buffer.
 */

interface RangeDecoders {
  latin1Slice(start: number, end: number): string
  utf8Slice(start: number, end: number): string
}

const bufferPrototype: Partial<RangeDecoders> = Buffer.prototype
const HAS_RANGE_DECODERS = typeof bufferPrototype.latin1Slice === "function" && typeof bufferPrototype.utf8Slice === "function"

/** The bytes [start, end) of `bytes` as latin1 text: one char per byte, offsets kept. */
export function latin1Text(bytes: Buffer, start: number, end: number): string {
  return HAS_RANGE_DECODERS ? (bytes as Buffer & RangeDecoders).latin1Slice(start, end) : bytes.toString("latin1", start, end)
}

/** The bytes [start, end) of `bytes` decoded as UTF-8 (the caller checked they are UTF-8). */
export function utf8Text(bytes: Buffer, start: number, end: number): string {
  return HAS_RANGE_DECODERS ? (bytes as Buffer & RangeDecoders).utf8Slice(start, end) : bytes.toString("utf8", start, end)
}
