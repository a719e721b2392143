import http from "http"
import type { AddressInfo } from "net"
import {
  CryptoStoreConfigError,
  CryptoStoreError,
  CryptoStoreUnreachableError,
  STARTER_BACKEND_URL_VARIABLES,
  getCryptoPaymentStatus,
  initiateCryptoSession,
  listCryptoCurrencies,
  refreshCryptoInvoice,
} from "../server"

/**
 * docs/storefront.md, step 2: the storefront passes the backend URL from its starter's own variable
 * (MEDUSA_BACKEND_URL in the Next.js starter, NEXT_PUBLIC_MEDUSA_BACKEND_URL in the DTC starter). The
 * kit never guesses one: a missing URL is refused naming both, and a backend that does not answer is
 * named by its URL, in the error and in the server log.
 */

/** A logger that keeps what it was given. */
function recordingLogger(): { error: (message: string) => void; lines: string[] } {
  const lines: string[] = []
  return { error: (message: string) => void lines.push(message), lines }
}

const neverCalled: typeof fetch = async () => {
  throw new Error("fetch must not be called")
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe("a missing backend URL", () => {
  it.each([
    ["undefined", undefined],
    ["empty", ""],
    ["blank", "  "],
  ])("%s is refused with an error naming each starter's variable", async (_, baseUrl) => {
    const logger = recordingLogger()
    const failure = listCryptoCurrencies({ baseUrl, publishableKey: "pk_test", fetch: neverCalled, logger, cartId: "cart_1" })
    await expect(failure).rejects.toBeInstanceOf(CryptoStoreConfigError)
    await expect(failure).rejects.toMatchObject({ field: "baseUrl" })
    await expect(failure).rejects.toThrow(
      "baseUrl is missing: pass the Medusa backend URL from the storefront's environment (MEDUSA_BACKEND_URL in nextjs-starter-medusa, NEXT_PUBLIC_MEDUSA_BACKEND_URL in dtc-starter; docs/storefront.md, step 2)"
    )
    expect(logger.lines).toEqual([expect.stringContaining("NEXT_PUBLIC_MEDUSA_BACKEND_URL")])
  })

  it("is refused by every helper that calls the store, before any request", async () => {
    const connection = { baseUrl: undefined, publishableKey: "pk_test", fetch: neverCalled, logger: recordingLogger() }
    await expect(getCryptoPaymentStatus({ ...connection, cartId: "cart_1" })).rejects.toThrow("MEDUSA_BACKEND_URL in nextjs-starter-medusa")
    await expect(refreshCryptoInvoice({ ...connection, cartId: "cart_1" })).rejects.toThrow("NEXT_PUBLIC_MEDUSA_BACKEND_URL in dtc-starter")
    await expect(initiateCryptoSession({ id: "cart_1", payment_collection: { id: "paycol_1" } }, { psys_cid: "BTC" }, connection)).rejects.toBeInstanceOf(
      CryptoStoreConfigError
    )
  })

  it("names the variables the guide uses", () => {
    expect(STARTER_BACKEND_URL_VARIABLES).toEqual({ "nextjs-starter-medusa": "MEDUSA_BACKEND_URL", "dtc-starter": "NEXT_PUBLIC_MEDUSA_BACKEND_URL" })
  })

  it("a URL without its scheme is refused, quoting it", async () => {
    const failure = listCryptoCurrencies({ baseUrl: "localhost:9100", publishableKey: "pk_test", fetch: neverCalled, logger: recordingLogger(), cartId: "cart_1" })
    await expect(failure).rejects.toThrow('baseUrl must be the absolute http(s) URL of the Medusa backend (MEDUSA_BACKEND_URL in nextjs-starter-medusa, NEXT_PUBLIC_MEDUSA_BACKEND_URL in dtc-starter), got "localhost:9100"')
  })

  it("a missing publishable key is refused naming the starters' variable", async () => {
    const failure = listCryptoCurrencies({ baseUrl: "http://localhost:9100", publishableKey: undefined, fetch: neverCalled, logger: recordingLogger(), cartId: "cart_1" })
    await expect(failure).rejects.toMatchObject({ field: "publishableKey", message: expect.stringContaining("NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY") })
  })
})

describe("an unreachable backend", () => {
  it("a refused connection throws an error with the URL, and logs it", async () => {
    const port = await closedPort()
    const logger = recordingLogger()
    const failure = listCryptoCurrencies({ baseUrl: `http://127.0.0.1:${port}/`, publishableKey: "pk_secret_looking", logger, cartId: "cart_1" })
    await expect(failure).rejects.toBeInstanceOf(CryptoStoreUnreachableError)
    await expect(failure).rejects.toMatchObject({ status: null, url: `http://127.0.0.1:${port}`, reason: "refused", code: "ECONNREFUSED" })
    await expect(failure).rejects.toThrow(`Could not reach the Medusa backend at http://127.0.0.1:${port} (GET /store/crypto/currencies): the connection was refused`)
    expect(logger.lines).toHaveLength(1)
    expect(logger.lines[0]).toContain(`http://127.0.0.1:${port}`)
  })

  it("is still a CryptoStoreError with no status, as before", async () => {
    const port = await closedPort()
    const failure = getCryptoPaymentStatus({ baseUrl: `http://127.0.0.1:${port}`, publishableKey: "pk_test", logger: recordingLogger(), cartId: "cart_1" })
    await expect(failure).rejects.toBeInstanceOf(CryptoStoreError)
    await expect(failure).rejects.toMatchObject({ status: null })
  })

  it("a host name that does not resolve is named as such", async () => {
    const dnsFailure: typeof fetch = async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("getaddrinfo ENOTFOUND medusa.invalid"), { code: "ENOTFOUND" }) })
    }
    const failure = listCryptoCurrencies({ baseUrl: "https://medusa.invalid", publishableKey: "pk_test", fetch: dnsFailure, logger: recordingLogger(), cartId: "cart_1" })
    await expect(failure).rejects.toMatchObject({ reason: "dns", code: "ENOTFOUND", url: "https://medusa.invalid" })
    await expect(failure).rejects.toThrow("Could not reach the Medusa backend at https://medusa.invalid (GET /store/crypto/currencies): the host name did not resolve [ENOTFOUND]")
  })

  it("a backend that accepts the connection but never answers times out, naming the URL", async () => {
    const sockets = new Set<import("net").Socket>()
    const silentServer = http.createServer(() => undefined)
    silentServer.on("connection", (socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silentServer.listen(0, "127.0.0.1", resolve))
    const { port } = silentServer.address() as AddressInfo
    try {
      const failure = listCryptoCurrencies({ baseUrl: `http://127.0.0.1:${port}`, publishableKey: "pk_test", timeoutMs: 200, logger: recordingLogger(), cartId: "cart_1" })
      await expect(failure).rejects.toMatchObject({ reason: "timeout", url: `http://127.0.0.1:${port}` })
      await expect(failure).rejects.toThrow(`Could not reach the Medusa backend at http://127.0.0.1:${port} (GET /store/crypto/currencies): no answer within 200 ms`)
    } finally {
      sockets.forEach((socket) => socket.destroy())
      await new Promise<void>((resolve) => silentServer.close(() => resolve()))
    }
  })

  it("never shows the credentials of the URL, the publishable key or the shopper's headers", async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) })
    }
    const logger = recordingLogger()
    const failure = getCryptoPaymentStatus({
      baseUrl: "http://admin:hunter2@localhost:9100/?token=abc",
      publishableKey: "pk_0123456789",
      headers: { authorization: "Bearer shopper-token" },
      fetch: failing,
      logger,
      cartId: "cart_1",
    })
    await expect(failure).rejects.toMatchObject({ url: "http://localhost:9100" })
    const shown = [logger.lines.join("\n"), await failure.catch((error: Error) => error.message)].join("\n")
    expect(shown).toContain("http://localhost:9100")
    for (const secret of ["hunter2", "admin", "token=abc", "pk_0123456789", "shopper-token"]) expect(shown).not.toContain(secret)
  })

  it("a POST that timed out tells the caller to read the status before trying again", async () => {
    const timedOut: typeof fetch = async () => {
      throw Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" })
    }
    const failure = refreshCryptoInvoice({ baseUrl: "http://localhost:9100", publishableKey: "pk_test", fetch: timedOut, timeoutMs: 500, logger: recordingLogger(), cartId: "cart_1" })
    await expect(failure).rejects.toThrow("no answer within 500 ms (the store may still have done it: read the payment status before trying again)")
  })
})
