// "Check the callback URL" (docs/troubleshooting.md#check-the-callback-url) against small HTTP servers
// on port 0 standing where the store's public URL leads: this store's callback route (the gateway's
// verifier and the route's answer to a test callback), an nginx that answers 404, a redirect, a
// server that never answers, a port nothing listens on.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { parseCryptoOptions } from "../../../core/config/options"
import { invoiceLinks } from "../../../core/config/provider-entry"
import { CallbackVerificationError, signCallback, verifyCallback } from "../../../gateway"
import { checkCallbackUrl, invoiceCallbackUrl, networkFailureOf, THIS_STORE_ANSWERED } from "../steps/check-crypto-callback-url"
import { isTestCallback, testCallbackAnswer, testCallbackFields } from "../../../core/payment/test-callback"

const API_KEY = "shop-secret-key-0123456789"
const PROVIDER_ID = "pp_crypto_crypto"

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void

interface Stand {
  url: string
  requests: Array<{ path: string; contentType: string | undefined; body: string }>
  close: () => Promise<void>
}

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

/** A server on a free port of 127.0.0.1 that records each request and answers with `handler`. */
async function stand(handler: Handler): Promise<Stand> {
  const requests: Stand["requests"] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      requests.push({ path: req.url ?? "", contentType: req.headers["content-type"], body: body.toString("utf8") })
      handler(req, body, res)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** What the store's callback route does with a body (src/api/hooks/crypto/[id]/route.ts): verify, then answer a test callback with its nonce. */
const thisStore =
  (key: string): Handler =>
  (req, body, res) => {
    try {
      const { fields } = verifyCallback({ body, contentType: req.headers["content-type"], secretKey: key })
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(isTestCallback(fields) ? testCallbackAnswer(PROVIDER_ID, fields) : { received: true, duplicate: false }))
    } catch (error) {
      if (!(error instanceof CallbackVerificationError)) throw error
      res.writeHead(401, { "content-type": "application/json", "x-powered-by": "Express" })
      res.end(JSON.stringify({ message: "Invalid callback signature" }))
    }
  }

const NGINX_404 = "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

const entryAt = (backendUrl: string | undefined) => ({
  providerId: PROVIDER_ID,
  options: parseCryptoOptions({ apiKey: API_KEY, baseUrl: "https://gateway.example", ...(backendUrl === undefined ? {} : { backendUrl }) }),
})

describe("the URL checked", () => {
  it("is the callback URL a new invoice carries", () => {
    const entry = entryAt("https://shop.example.com/")
    expect(invoiceCallbackUrl(entry)).toBe(invoiceLinks(entry.options, PROVIDER_ID, "cart_1", "a@b.c").callback_url)
    expect(invoiceCallbackUrl(entry)).toBe("https://shop.example.com/hooks/crypto/crypto?json=true")
  })

  it("is none without backendUrl, and nothing is sent", async () => {
    const result = await checkCallbackUrl(entryAt(undefined))
    expect(result).toEqual({ provider_id: PROVIDER_ID, url: null, answered_by_this_store: false, status: null, detail: expect.stringContaining("backendUrl is not set"), elapsed_ms: 0 })
  })
})

describe("the test callback", () => {
  it("is signed as the gateway signs (spec §6.3): it verifies with the provider's key, as JSON to the json=true URL", async () => {
    const store = await stand(thisStore(API_KEY))
    await checkCallbackUrl(entryAt(store.url))
    expect(store.requests).toHaveLength(1)
    const [sent] = store.requests
    expect(sent.path).toBe("/hooks/crypto/crypto?json=true")
    expect(sent.contentType).toBe("application/json")
    const { fields } = verifyCallback({ body: sent.body, contentType: sent.contentType, secretKey: API_KEY })
    expect(fields).toEqual({ ipn_type: "test", txn_id: expect.stringMatching(/^[0-9a-f]{32}$/) })
  })

  it("carries a new nonce every time", async () => {
    const store = await stand(thisStore(API_KEY))
    await checkCallbackUrl(entryAt(store.url))
    await checkCallbackUrl(entryAt(store.url))
    const nonces = store.requests.map((request) => (JSON.parse(request.body) as { txn_id: string }).txn_id)
    expect(new Set(nonces).size).toBe(2)
  })

  it("does not verify with another key", () => {
    const signed = signCallback(testCallbackFields("n1"), { secretKey: "another-key", format: "json" })
    expect(() => verifyCallback({ body: signed.body, contentType: signed.contentType, secretKey: API_KEY })).toThrow(CallbackVerificationError)
  })
})

describe("who answered", () => {
  it("this store: HTTP 200 echoing the nonce and the provider id", async () => {
    const store = await stand(thisStore(API_KEY))
    const result = await checkCallbackUrl(entryAt(store.url))
    expect(result).toMatchObject({ url: `${store.url}/hooks/crypto/crypto?json=true`, answered_by_this_store: true, status: 200, detail: THIS_STORE_ANSWERED })
    expect(result.elapsed_ms).toBeGreaterThanOrEqual(0)
  })

  it("an HTTP 200 that does not echo the nonce is something else", async () => {
    const other = await stand((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ test: true, provider_id: PROVIDER_ID, txn_id: "another-nonce" }))
    })
    expect(await checkCallbackUrl(entryAt(other.url))).toMatchObject({ answered_by_this_store: false, status: 200, detail: expect.stringMatching(/^Something else answered: HTTP 200/) })
  })

  it("an nginx answering 404: its status, its server header and the start of its body", async () => {
    const nginx = await stand((_req, _body, res) => {
      res.writeHead(404, { "content-type": "text/html", server: "nginx/1.25.3", via: "1.1 edge-proxy" })
      res.end(NGINX_404)
    })
    const result = await checkCallbackUrl(entryAt(nginx.url))
    expect(result).toMatchObject({ answered_by_this_store: false, status: 404 })
    expect(result.detail).toBe(
      'Something else answered: HTTP 404 from nginx/1.25.3 via 1.1 edge-proxy: "<html> <head><title>404 Not Found</title></head> <body> <center><h1>404 Not Found</h1></center> <hr><center>nginx</center> </body> </html>"'
    )
  })

  it("a long body is quoted in part", async () => {
    const verbose = await stand((_req, _body, res) => {
      res.writeHead(502)
      res.end("x".repeat(100_000))
    })
    const result = await checkCallbackUrl(entryAt(verbose.url))
    expect(result).toMatchObject({ status: 502 })
    expect(result.detail.length).toBeLessThan(300)
    expect(result.detail.endsWith('…"')).toBe(true)
  })

  it("a redirect is what answered: reported with where it leads, not followed", async () => {
    const target = await stand(thisStore(API_KEY))
    const proxy = await stand((_req, _body, res) => {
      res.writeHead(301, { location: `${target.url}/hooks/crypto/crypto?json=true`, server: "nginx" })
      res.end()
    })
    const result = await checkCallbackUrl(entryAt(proxy.url))
    expect(result).toMatchObject({ answered_by_this_store: false, status: 301 })
    expect(result.detail).toContain(`HTTP 301 from nginx, a redirect to ${target.url}/hooks/crypto/crypto?json=true`)
    expect(target.requests).toHaveLength(0)
  })

  it("a crypto callback route with another key: named as a refused signature", async () => {
    const other = await stand(thisStore("the-other-stores-key"))
    const result = await checkCallbackUrl(entryAt(other.url))
    expect(result).toMatchObject({ answered_by_this_store: false, status: 401, detail: expect.stringContaining("refused the signature") })
  })

  it("a crypto callback route that does not know the provider: named", async () => {
    const other = await stand((_req, _body, res) => {
      res.writeHead(404, { "content-type": "application/json" })
      res.end(JSON.stringify({ message: "Unknown crypto provider" }))
    })
    expect((await checkCallbackUrl(entryAt(other.url))).detail).toContain('knows no provider "crypto"')
  })
})

describe("when nothing answers", () => {
  it("a refused connection says so", async () => {
    const gone = await stand(() => undefined)
    await gone.close()
    const result = await checkCallbackUrl(entryAt(gone.url))
    expect(result).toMatchObject({ answered_by_this_store: false, status: null })
    expect(result.detail).toMatch(/^Nothing answered: the connection to 127\.0\.0\.1:\d+ was refused/)
  })

  it("a server that never answers is given up after the timeout", async () => {
    const silent = await stand(() => undefined)
    const result = await checkCallbackUrl(entryAt(silent.url), { timeoutMs: 200 })
    expect(result).toMatchObject({ answered_by_this_store: false, status: null, detail: "Nothing answered: no answer within 0.2 s." })
    expect(result.elapsed_ms).toBeGreaterThanOrEqual(150)
  })

  it("TLS spoken to a plain HTTP port is a TLS failure, in OpenSSL's reason", async () => {
    const plain = await stand(thisStore(API_KEY))
    const result = await checkCallbackUrl(entryAt(plain.url.replace("http:", "https:")))
    expect(result).toMatchObject({ status: null })
    expect(result.detail).toMatch(/^Nothing answered: the TLS handshake with 127\.0\.0\.1:\d+ failed \(EPROTO: wrong version number\)\.$/)
  })

  it("names DNS, refused, timeout and certificate failures by their codes", () => {
    const failure = (code: string, message = code) => networkFailureOf(Object.assign(new Error(message), { code }))
    expect(failure("ENOTFOUND").kind).toBe("dns")
    expect(failure("EAI_AGAIN").kind).toBe("dns")
    expect(failure("ECONNREFUSED").kind).toBe("refused")
    expect(failure("ETIMEDOUT").kind).toBe("timeout")
    expect(failure("CERT_HAS_EXPIRED").kind).toBe("tls")
    expect(failure("DEPTH_ZERO_SELF_SIGNED_CERT").kind).toBe("tls")
    expect(failure("ERR_TLS_CERT_ALTNAME_INVALID").kind).toBe("tls")
    expect(failure("ECONNRESET").kind).toBe("network")
  })
})

describe("the secret key", () => {
  it("appears in nothing sent and nothing answered, even when the answer echoes the request", async () => {
    const echo = await stand((req, body, res) => {
      res.writeHead(400, { "content-type": "text/plain" })
      res.end(`${body.toString("utf8")} ${req.method} ${req.url} ${JSON.stringify(req.headers)}`)
    })
    const result = await checkCallbackUrl(entryAt(echo.url))
    expect(JSON.stringify(echo.requests)).not.toContain(API_KEY)
    expect(JSON.stringify(result)).not.toContain(API_KEY)
    expect(result.detail).toContain("verify_hash")
  })
})
