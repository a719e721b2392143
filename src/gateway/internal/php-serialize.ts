/**
 * PHP `serialize()` of the shape a PHP receiver's `$_POST` has for a callback (spec §6.3): an array
 * with string keys whose values are strings or lists of strings.
 *
 * The format, as PHP writes it (checked against PHP 8.2 by scripts/make-callback-vectors.php):
 *   string  s:<length in BYTES>:"<bytes>";
 *   list    a:<count>:{i:0;<string>i:1;<string>...}     (no ';' after '}')
 *   array   a:<count>:{<key><value>...}
 * Lengths count UTF-8 bytes, not characters: "é" is `s:2:"é";`.
 */

/** One field of the PHP array: its key and its value as the exact bytes PHP would hold. */
export interface PhpFormField {
  readonly name: string
  readonly value: Buffer | readonly Buffer[]
}

function decimalLength(n: number): number {
  let digits = 1
  while (n >= 10) {
    n = Math.floor(n / 10)
    digits++
  }
  return digits
}

/** Bytes `s:<len>:"` + bytes + `";` take. */
function serializedStringLength(byteLength: number): number {
  return 2 + decimalLength(byteLength) + 2 + byteLength + 2
}

/**
 * `serialize()` of the array `fields` describes, in the order given (sort first: PHP's ksort is the
 * caller's job). Built into one buffer so the HMAC sees a single update.
 */
export function phpSerializeFormFields(fields: readonly PhpFormField[]): Buffer {
  let total = 2 + decimalLength(fields.length) + 2 + 1 // a:<n>:{ ... }
  const nameLengths = new Array<number>(fields.length)
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]
    const nameLength = Buffer.byteLength(field.name, "utf8")
    nameLengths[i] = nameLength
    total += serializedStringLength(nameLength)
    const value = field.value
    if (Buffer.isBuffer(value)) {
      total += serializedStringLength(value.length)
    } else {
      const items = value as readonly Buffer[]
      total += 2 + decimalLength(items.length) + 2 + 1
      for (let j = 0; j < items.length; j++) {
        total += 2 + decimalLength(j) + 1 + serializedStringLength(items[j].length)
      }
    }
  }

  const out = Buffer.allocUnsafe(total)
  let pos = out.write(`a:${fields.length}:{`, 0, "latin1")
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]
    pos += out.write(`s:${nameLengths[i]}:"`, pos, "latin1")
    pos += out.write(field.name, pos, "utf8")
    pos += out.write('";', pos, "latin1")
    const value = field.value
    if (Buffer.isBuffer(value)) {
      pos = writeString(out, pos, value)
    } else {
      const items = value as readonly Buffer[]
      pos += out.write(`a:${items.length}:{`, pos, "latin1")
      for (let j = 0; j < items.length; j++) {
        pos += out.write(`i:${j};`, pos, "latin1")
        pos = writeString(out, pos, items[j])
      }
      pos += out.write("}", pos, "latin1")
    }
  }
  pos += out.write("}", pos, "latin1")
  return pos === total ? out : out.subarray(0, pos)
}

function writeString(out: Buffer, pos: number, bytes: Buffer): number {
  pos += out.write(`s:${bytes.length}:"`, pos, "latin1")
  pos += bytes.copy(out, pos)
  pos += out.write('";', pos, "latin1")
  return pos
}
