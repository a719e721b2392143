/** The form bodies the signer writes (spec §6.1): urlencoded and multipart/form-data. */

/** One field to write: a scalar or a list. */
export interface FormFieldToWrite {
  readonly name: string
  readonly value: string | readonly string[]
}

function flatten(fields: readonly FormFieldToWrite[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const field of fields) {
    if (typeof field.value === "string") {
      pairs.push([field.name, field.value])
    } else {
      field.value.forEach((item, index) => pairs.push([`${field.name}[${index}]`, item]))
    }
  }
  return pairs
}

/** Writes an urlencoded body (WHATWG serializer: spaces as `+`, brackets percent-encoded). */
export function writeUrlencodedBody(fields: readonly FormFieldToWrite[]): Buffer {
  return Buffer.from(new URLSearchParams(flatten(fields)).toString(), "utf8")
}

/** Writes a multipart/form-data body with the given boundary (one text part per field or element). */
export function writeMultipartBody(fields: readonly FormFieldToWrite[], boundary: string): Buffer {
  const chunks: string[] = []
  for (const [name, value] of flatten(fields)) {
    chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  chunks.push(`--${boundary}--\r\n`)
  return Buffer.from(chunks.join(""), "utf8")
}
