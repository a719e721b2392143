import { randomBytes } from "node:crypto"
import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { invoiceLinks, resolveCryptoProviderEntry, type CryptoProviderEntry } from "../../../core/config/provider-entry"
import { signCallback } from "../../../gateway"
import { isAnswerToTestCallback, testCallbackFields } from "../../../core/payment/test-callback"

export const checkCryptoCallbackUrlStepId = "check-crypto-callback-url"

/** How long the check waits for an answer, in all (connection, TLS, headers, the body read). */
export const CALLBACK_CHECK_TIMEOUT_MS = 10_000
/** How much of an answer's body is read; the rest is dropped. */
const BODY_READ_BYTES = 8 * 1024
/** How much of a foreign answer's body the result quotes. */
const EXCERPT_CHARS = 200

/** What POST /admin/crypto/settings/callback-check answers (docs/troubleshooting.md#check-the-callback-url). */
export interface CallbackCheckResult {
  provider_id: string
  /** The callback URL checked: the one invoices carry; null when `backendUrl` is not set. */
  url: string | null
  answered_by_this_store: boolean
  /** The HTTP status of what answered; null when nothing did. */
  status: number | null
  /** In plain words: who answered, or why nothing did. */
  detail: string
  elapsed_ms: number
}

/** Whatever answered at the URL: its status, the headers that name it, the start of its body. */
export interface HttpAnswer {
  status: number
  server: string | null
  via: string | null
  location: string | null
  body: string
}

/** Why nothing answered. */
export interface NetworkFailure {
  kind: "dns" | "refused" | "timeout" | "tls" | "network"
  code: string | null
  message: string
}

export type PostOutcome = { answer: HttpAnswer } | { failure: NetworkFailure }

/**
 * The callback URL a new invoice of `entry` carries (spec §4.1), as the provider builds it
 * (`invoiceLinks`): the page shows and the check posts to exactly what the gateway gets. Null when
 * `backendUrl` is not set: invoices then carry none.
 */
export function invoiceCallbackUrl(entry: Pick<CryptoProviderEntry, "options" | "providerId">): string | null {
  return invoiceLinks(entry.options, entry.providerId, undefined, undefined).callback_url ?? null
}

const header = (response: IncomingMessage, name: string): string | null => {
  const value = response.headers[name]
  return Array.isArray(value) ? value.join(", ") : (value ?? null)
}

/** DNS lookups that found nothing (getaddrinfo). */
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EAI_NODATA"])
/** TLS failures: OpenSSL's certificate verdicts and handshake errors, as Node names them. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|EPROTO$)/

/** A transport error as a kind of failure; its message is Node's (the URL's host at most: nothing secret travels). */
export function networkFailureOf(error: unknown): NetworkFailure {
  // Read by their fields, not `instanceof Error`: Node's own errors fail it across realms (a vm, jest).
  const seen: { code?: unknown; message?: unknown } = typeof error === "object" && error !== null ? error : {}
  const code = typeof seen.code === "string" ? seen.code : null
  const message = typeof seen.message === "string" ? seen.message : String(error)
  if (code !== null && DNS_CODES.has(code)) return { kind: "dns", code, message }
  if (code === "ECONNREFUSED") return { kind: "refused", code, message }
  if (code === "ETIMEDOUT") return { kind: "timeout", code, message }
  if (code !== null && TLS_CODE.test(code)) return { kind: "tls", code, message }
  return { kind: "network", code, message }
}

/**
 * POSTs `body` to `url` once: no retry, no redirect followed (a redirect is what answered), no
 * pooled connection. Whatever answers within `timeoutMs` is the outcome, with at most
 * BODY_READ_BYTES of its body; an answer whose body is still coming at the deadline counts with
 * what was read.
 */
export function postOnce(url: URL, body: Buffer, contentType: string, timeoutMs: number): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let settled = false
    let response: IncomingMessage | null = null
    const chunks: Buffer[] = []
    let size = 0
    const answered = (seen: IncomingMessage): PostOutcome => ({
      answer: {
        status: seen.statusCode ?? 0,
        server: header(seen, "server"),
        via: header(seen, "via"),
        location: header(seen, "location"),
        body: Buffer.concat(chunks).subarray(0, BODY_READ_BYTES).toString("utf8"),
      },
    })
    const finish = (outcome: PostOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(outcome)
      request.destroy()
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const request = send(
      url,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": contentType, "content-length": String(body.length), accept: "application/json", "user-agent": "medusa-payment-crypto callback check" },
      },
      (incoming) => {
        response = incoming
        incoming.on("data", (chunk: Buffer) => {
          chunks.push(chunk)
          size += chunk.length
          if (size >= BODY_READ_BYTES) finish(answered(incoming))
        })
        incoming.on("end", () => finish(answered(incoming)))
        // The body was cut: what was read still says who answered.
        incoming.on("error", () => finish(answered(incoming)))
      }
    )
    const timer = setTimeout(() => {
      finish(response === null ? { failure: { kind: "timeout", code: null, message: `no answer within ${timeoutMs / 1000} s` } } : answered(response))
    }, timeoutMs)
    request.on("error", (error) => finish(response === null ? { failure: networkFailureOf(error) } : answered(response)))
    request.end(body)
  })
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const messageOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "message" in body && typeof body.message === "string" ? body.message : null

const excerpt = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat
}

/** "from nginx via 1.1 varnish", from the headers that name what answered. */
const answeredBy = (answer: HttpAnswer): string =>
  [answer.server === null ? "" : ` from ${answer.server}`, answer.via === null ? "" : ` via ${answer.via}`].join("")

/** The wording the settings page shows for a check (docs/troubleshooting.md#check-the-callback-url). */
export const THIS_STORE_ANSWERED = "This store answered: callbacks will arrive."

/**
 * Who answered the test callback with `nonce` for `providerId`, in plain words. Only this store's
 * own answer (HTTP 200 echoing the nonce and the provider id) counts; a store of this plugin that
 * refuses the signature or does not know the provider is named as such (docs/troubleshooting.md).
 */
export function judgeCallbackCheck(
  outcome: PostOutcome,
  expected: { providerId: string; nonce: string; url: URL; timeoutMs: number }
): Pick<CallbackCheckResult, "answered_by_this_store" | "status" | "detail"> {
  if ("failure" in outcome) {
    return { answered_by_this_store: false, status: null, detail: `Nothing answered: ${failureWords(outcome.failure, expected.url, expected.timeoutMs)}` }
  }
  const { answer } = outcome
  const body = parseJson(answer.body)
  const status = answer.status
  if (status === 200 && isAnswerToTestCallback(body, expected.providerId, expected.nonce)) {
    return { answered_by_this_store: true, status, detail: THIS_STORE_ANSWERED }
  }
  const who = answeredBy(answer)
  let detail: string
  if (status >= 300 && status < 400) {
    detail = `Something else answered: HTTP ${status}${who}, a redirect${answer.location === null ? "" : ` to ${answer.location}`}. A redirect is not followed: set backendUrl to the address callbacks must reach.`
  } else if (status === 401 && messageOf(body) === "Invalid callback signature") {
    detail = `Something else answered: HTTP 401${who}, a crypto callback route that refused the signature. That server has another apiKey, or a proxy changed the body on the way.`
  } else if (status === 404 && messageOf(body) === "Unknown crypto provider") {
    detail = `Something else answered: HTTP 404${who}, a crypto callback route that knows no provider "${decodeURIComponent(expected.url.pathname.split("/").pop() ?? "")}". That server has another medusa-config.`
  } else {
    const text = excerpt(answer.body)
    detail = `Something else answered: HTTP ${status}${who}${text === "" ? ", with an empty body." : `: "${text}"`}`
  }
  return { answered_by_this_store: false, status, detail }
}

/** OpenSSL's reason out of Node's text ("…:SSL routines:ssl3_get_record:wrong version number:…" → "wrong version number"). */
const opensslReason = (message: string): string => /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message

function failureWords(failure: NetworkFailure, url: URL, timeoutMs: number): string {
  switch (failure.kind) {
    case "dns":
      return `the host ${url.hostname} does not resolve from this server (DNS: ${failure.code}).`
    case "refused":
      return `the connection to ${url.host} was refused (ECONNREFUSED): nothing listens there.`
    case "timeout":
      return `no answer within ${timeoutMs / 1000} s${failure.code === null ? "" : ` (${failure.code})`}.`
    case "tls":
      return `the TLS handshake with ${url.host} failed (${failure.code}: ${opensslReason(failure.message)}).`
    case "network":
      return `${failure.message}${failure.code === null || failure.message.includes(failure.code) ? "" : ` (${failure.code})`}.`
  }
}

/**
 * Sends one test callback (test-callback.ts), signed with the entry's key exactly as the gateway
 * signs (spec §6.3), to the entry's public callback URL, and says whether this store answered it.
 * The key signs the body and goes nowhere else: not in the URL, the result or a log.
 */
export async function checkCallbackUrl(
  entry: Pick<CryptoProviderEntry, "options" | "providerId">,
  options: { timeoutMs?: number } = {}
): Promise<CallbackCheckResult> {
  const timeoutMs = options.timeoutMs ?? CALLBACK_CHECK_TIMEOUT_MS
  const url = invoiceCallbackUrl(entry)
  if (url === null) {
    return {
      provider_id: entry.providerId,
      url: null,
      answered_by_this_store: false,
      status: null,
      detail:
        "No callback URL: backendUrl is not set for this provider, so invoices carry none and the gateway posts callbacks to the shop's Status URL. Set backendUrl to this store's public URL.",
      elapsed_ms: 0,
    }
  }
  const nonce = randomBytes(16).toString("hex")
  // The URL carries json=true, so the gateway posts JSON (spec §6.1): the test callback is JSON too.
  const signed = signCallback(testCallbackFields(nonce), { secretKey: entry.options.apiKey, format: "json" })
  const target = new URL(url)
  const started = Date.now()
  const outcome = await postOnce(target, signed.body, signed.contentType, timeoutMs)
  const elapsed_ms = Date.now() - started
  return { provider_id: entry.providerId, url, ...judgeCallbackCheck(outcome, { providerId: entry.providerId, nonce, url: target, timeoutMs }), elapsed_ms }
}

/**
 * "Check the callback URL": one test callback to the provider's public callback URL. It changes
 * nothing here (this store answers it without storing it) and nothing at the gateway, so there is
 * nothing to compensate; run again, it sends a new test callback.
 */
export const checkCryptoCallbackUrlStep = createStep(checkCryptoCallbackUrlStepId, async (input: { provider_id?: string }, { container }) => {
  const entry = resolveCryptoProviderEntry(container, input.provider_id)
  return new StepResponse(await checkCallbackUrl(entry))
})
