/**
 * Keeps the `api_key` (spec §5.1: it travels in the query string) out of every log line and error.
 */

const API_KEY_PARAM = /([?&]api_key=)[^&#\s"]*/g

/** The URL with the value of its `api_key` query parameter replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(API_KEY_PARAM, "$1***")
}

/**
 * `text` with every occurrence of `secret` (raw, percent-encoded, or form-encoded as in a query
 * string) replaced by `***`, and any `api_key=` query value masked.
 */
export function redactSecret(text: string, secret: string): string {
  let out = redactUrl(text)
  if (secret === "") return out
  const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)])
  for (const form of forms) {
    out = out.split(form).join("***")
  }
  return out
}
