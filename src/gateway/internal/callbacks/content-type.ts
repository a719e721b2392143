/**
 * Classifies a callback's Content-Type header (spec §6.1: multipart/form-data by default,
 * application/json with `json=true`; urlencoded forms are read too, docs/gateway-readings.md#callbacks).
 * Media types are case-insensitive and may carry parameters (`application/json; charset=utf-8`,
 * `Multipart/Form-Data; boundary=…`); busboy reads the boundary itself from the whole header.
 */

export type CallbackBodyKind = "json" | "urlencoded" | "multipart"

export type ContentTypeReading =
  | { readonly ok: true; readonly kind: CallbackBodyKind }
  | { readonly ok: false; readonly problem: string }

/** Charsets that are UTF-8 or a subset of it: the only ones a signature over UTF-8 bytes can mean. */
const UTF8_CHARSETS = new Set(["utf-8", "utf8", "us-ascii"])

const PARAMETER_RE = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*?)\s*$/

function charsetOf(parameters: string[]): string | undefined {
  for (const parameter of parameters) {
    const match = PARAMETER_RE.exec(parameter)
    if (match === null || match[1].toLowerCase() !== "charset") continue
    const raw = match[2]
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw
    return value.toLowerCase()
  }
  return undefined
}

/** A server sees the same few headers over and over: their readings are remembered (bounded). */
const READINGS = new Map<string, ContentTypeReading>()
const READINGS_LIMIT = 64

export function classifyContentType(header: string): ContentTypeReading {
  const known = READINGS.get(header)
  if (known !== undefined) return known
  const reading = readContentType(header)
  if (READINGS.size < READINGS_LIMIT && header.length <= 200) READINGS.set(header, reading)
  return reading
}

function readContentType(header: string): ContentTypeReading {
  const parts = header.split(";")
  const mediaType = parts[0].trim().toLowerCase()
  let kind: CallbackBodyKind
  if (mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    kind = "json"
  } else if (mediaType === "application/x-www-form-urlencoded") {
    kind = "urlencoded"
  } else if (mediaType === "multipart/form-data") {
    kind = "multipart"
  } else {
    return { ok: false, problem: `unsupported content type ${JSON.stringify(mediaType.slice(0, 100))}` }
  }
  const charset = charsetOf(parts.slice(1))
  if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
    return { ok: false, problem: `unsupported charset ${JSON.stringify(charset.slice(0, 40))}: callbacks are UTF-8` }
  }
  return { ok: true, kind }
}
