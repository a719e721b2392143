/**
 * PHP `serialize()` of the shape a PHP receiver's `$_POST` has for a callback (spec §6.3): an array
 * with string keys whose values are strings or lists of strings.
 *
 * The format, as PHP writes it (checked against PHP 8.2 by scripts/make-callback-vectors.php):
 *   string  s:<length in BYTES>:"<bytes>";
 *   list    a:<count>:{i:0;<string>i:1;<string>...}     (no ';' after '}')
 *   array   a:<count>:{<key><value>...}
 * PHP strings are bytes, and lengths count bytes: "é" is `s:2:"é";`. So strings here are "byte
 * strings": one JS char per byte (latin1), their `.length` is the byte length, and the result is
 * hashed with the latin1 encoding, which gives back exactly those bytes.
 */

/** One field of the PHP array: its name (ASCII) and its value as byte strings. */
export interface PhpFormField {
  readonly name: string
  readonly bytes: string | readonly string[]
}

/** The UTF-8 bytes of `text` as a byte string (itself when `text` is ASCII). */
export function toByteString(text: string): string {
  return /[^\u0000-\u007f]/.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text
}

/**
 * `serialize()` of the array `fields` describes, in the order given (sort first: PHP's ksort is the
 * caller's job), as a byte string.
 */
export function phpSerializeFormFields(fields: readonly PhpFormField[]): string {
  let out = `a:${fields.length}:{`
  for (let i = 0; i < fields.length; i++) {
    const { name, bytes } = fields[i]
    out += `s:${name.length}:"${name}";`
    if (typeof bytes === "string") {
      out += `s:${bytes.length}:"${bytes}";`
    } else {
      out += `a:${bytes.length}:{`
      for (let j = 0; j < bytes.length; j++) out += `i:${j};s:${bytes[j].length}:"${bytes[j]}";`
      out += "}"
    }
  }
  return `${out}}`
}
