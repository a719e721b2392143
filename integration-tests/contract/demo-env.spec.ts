/**
 * `npm run demo` as the backend of a developer's own storefront (README "demo", docs/storefront.md):
 * STOREFRONT_URL sets the store's `storefrontUrl` option (so the gateway's return URLs), its
 * STORE_CORS, and keeps the example storefront from starting. Checks the function that builds the
 * demo store's environment from `process.env`, without starting anything.
 */
import { demoStoreEnv, demoStorefront } from "../../scripts/lib/demo-env"
import { parseCryptoOptions, returnUrl } from "../../src/core/config/options"

const services = {
  databaseUrl: "postgres://localhost:5432/medusa_demo",
  backendUrl: "http://localhost:9000",
  sandboxUrl: "http://localhost:4010",
  apiKey: "sk_test",
  whiteLabel: true,
  seedOutput: "/tmp/seed.json",
}

/** The return URL the demo store's provider gives the gateway (demo/medusa-config.ts reads STOREFRONT_URL). */
const successUrlOf = (env: Record<string, string | undefined>): string | undefined =>
  returnUrl(parseCryptoOptions({ apiKey: env.CRYPTO_GATEWAY_API_KEY, baseUrl: env.CRYPTO_GATEWAY_BASE_URL, storefrontUrl: env.STOREFRONT_URL }), "success", "cart_1")

describe("the demo's storefront settings", () => {
  it("without STOREFRONT_URL: the example storefront on its port, the store pointing at it", () => {
    const storefront = demoStorefront({}, { exampleRequested: true, examplePort: 8001 })
    expect(storefront).toMatchObject({ own: false, startExample: true, url: "http://localhost:8001" })
    const env = demoStoreEnv({}, { ...services, storefront })
    expect(env.STOREFRONT_URL).toBe("http://localhost:8001")
    expect(env.STORE_CORS).toBe("http://localhost:8001")
    expect(successUrlOf(env)).toBe("http://localhost:8001/checkout/crypto/return?cart_id=cart_1")
  })

  it("STOREFRONT_URL: the developer's storefront gets the return URLs and CORS, and the example is not started", () => {
    const processEnv = { STOREFRONT_URL: "http://localhost:3000/" }
    const storefront = demoStorefront(processEnv, { exampleRequested: true, examplePort: 8000 })
    expect(storefront).toMatchObject({ own: true, startExample: false, url: "http://localhost:3000" })
    const env = demoStoreEnv(processEnv, { ...services, storefront })
    expect(env.STOREFRONT_URL).toBe("http://localhost:3000")
    expect(env.STORE_CORS).toBe("http://localhost:3000")
    expect(successUrlOf(env)).toBe("http://localhost:3000/checkout/crypto/return?cart_id=cart_1")
  })

  it("keeps origins STORE_CORS already lists, and the storefront's origin for a URL with a path", () => {
    const processEnv = { STOREFRONT_URL: "https://shop.example/de", STORE_CORS: "http://localhost:8000,https://shop.example" }
    const storefront = demoStorefront(processEnv, { exampleRequested: false, examplePort: 8000 })
    const env = demoStoreEnv(processEnv, { ...services, storefront })
    expect(env.STOREFRONT_URL).toBe("https://shop.example/de")
    expect(env.STORE_CORS).toBe("https://shop.example,http://localhost:8000")
  })

  it("refuses a STOREFRONT_URL that is not an http(s) URL, naming it", () => {
    expect(() => demoStorefront({ STOREFRONT_URL: "localhost:3000" }, { exampleRequested: true, examplePort: 8000 })).toThrow(/STOREFRONT_URL/)
  })

  it("the store's other settings come from the services the demo started", () => {
    const storefront = demoStorefront({}, { exampleRequested: false, examplePort: 8000 })
    const env = demoStoreEnv({ LOG_LEVEL: "debug" }, { ...services, storefront })
    expect(env).toMatchObject({
      DATABASE_URL: services.databaseUrl,
      MEDUSA_BACKEND_URL: services.backendUrl,
      CRYPTO_GATEWAY_BASE_URL: services.sandboxUrl,
      CRYPTO_GATEWAY_API_KEY: "sk_test",
      CRYPTO_GATEWAY_WHITE_LABEL: "true",
      DEMO_SEED_OUTPUT: "/tmp/seed.json",
      NODE_ENV: "development",
      LOG_LEVEL: "debug",
    })
  })
})
