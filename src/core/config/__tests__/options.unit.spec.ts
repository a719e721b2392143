import { MedusaError } from "@medusajs/framework/utils"
import { callbackUrl, DEFAULT_EXPIRE_MINUTES, DEFAULT_GATEWAY_TIMEOUT_MS, optionWarnings, parseCryptoOptions, returnUrl } from "../options"

const valid = { apiKey: "shop-secret-key", baseUrl: "http://localhost:9010", backendUrl: "https://api.shop.test" }

const messageOf = (raw: unknown): string => {
  try {
    parseCryptoOptions(raw)
  } catch (error) {
    expect(error).toBeInstanceOf(MedusaError)
    return (error as MedusaError).message
  }
  throw new Error("expected parseCryptoOptions to throw")
}

describe("parseCryptoOptions", () => {
  it("applies the documented defaults", () => {
    const options = parseCryptoOptions(valid)
    expect(options).toMatchObject({
      orderOnDetection: true,
      whiteLabel: false,
      expireMinutes: DEFAULT_EXPIRE_MINUTES,
      allowedCurrencies: [],
      defaultCurrency: undefined,
      successPath: "/checkout/crypto/return",
      failPath: "/checkout/crypto/return",
      gatewayTimeoutMs: DEFAULT_GATEWAY_TIMEOUT_MS,
    })
    expect(options.underpaidTolerancePercent.toFixed()).toBe("0")
  })

  it("names apiKey and says where to find it when it is missing", () => {
    expect(messageOf({ baseUrl: valid.baseUrl })).toMatch(/apiKey is required: set it to the shop's secret key/)
  })

  it("refuses a missing baseUrl instead of defaulting to a gateway", () => {
    expect(messageOf({ apiKey: "k" })).toMatch(/baseUrl is required/)
  })

  it("refuses a baseUrl that is not an http(s) URL", () => {
    expect(messageOf({ ...valid, baseUrl: "ftp://x" })).toMatch(/baseUrl must be an absolute http\(s\) URL/)
  })

  it("strips a trailing slash from URLs", () => {
    expect(parseCryptoOptions({ ...valid, baseUrl: "http://gw.test/" }).baseUrl).toBe("http://gw.test")
  })

  it("refuses a defaultCurrency outside allowedCurrencies", () => {
    expect(messageOf({ ...valid, allowedCurrencies: ["BTC"], defaultCurrency: "ETH" })).toMatch(/defaultCurrency "ETH" is not in allowedCurrencies \(BTC\)/)
  })

  it("reads underpaidTolerancePercent from its decimal text", () => {
    expect(parseCryptoOptions({ ...valid, underpaidTolerancePercent: "0.1" }).underpaidTolerancePercent.toFixed()).toBe("0.1")
    expect(parseCryptoOptions({ ...valid, underpaidTolerancePercent: 0.5 }).underpaidTolerancePercent.toFixed()).toBe("0.5")
  })

  it("refuses a tolerance above 100 percent", () => {
    expect(messageOf({ ...valid, underpaidTolerancePercent: "101" })).toMatch(/underpaidTolerancePercent must be at most 100/)
  })

  it("refuses a negative tolerance", () => {
    expect(messageOf({ ...valid, underpaidTolerancePercent: "-1" })).toMatch(/underpaidTolerancePercent must be a number from 0 to 100/)
  })

  it("lets an order placed on detection wait 24 hours for the rest by default; payRestHours 0 cancels at once", () => {
    expect(parseCryptoOptions(valid).payRestHours).toBe(24)
    expect(parseCryptoOptions({ ...valid, payRestHours: 0 }).payRestHours).toBe(0)
    expect(messageOf({ ...valid, payRestHours: 1.5 })).toMatch(/payRestHours must be a whole number of hours/)
    expect(messageOf({ ...valid, payRestHours: -1 })).toMatch(/payRestHours must be at least 0/)
    expect(messageOf({ ...valid, payRestHours: 721 })).toMatch(/payRestHours must be at most 720/)
  })

  it("refuses a fractional expireMinutes", () => {
    expect(messageOf({ ...valid, expireMinutes: 1.5 })).toMatch(/expireMinutes must be a whole number/)
  })

  it("refuses a gatewayTimeoutMs that is not a whole number of milliseconds", () => {
    expect(messageOf({ ...valid, gatewayTimeoutMs: "5s" })).toMatch(/gatewayTimeoutMs must be a whole number of milliseconds/)
  })

  it("refuses a gatewayTimeoutMs below 100 ms", () => {
    expect(messageOf({ ...valid, gatewayTimeoutMs: 10 })).toMatch(/gatewayTimeoutMs must be at least 100/)
  })

  it("names a misspelt option", () => {
    expect(messageOf({ ...valid, apikey: "x" })).toMatch(/unknown option\(s\) apikey/)
  })

  it("never repeats the apiKey value in an error", () => {
    expect(messageOf({ apiKey: "super-secret-value", baseUrl: "nope" })).not.toContain("super-secret-value")
  })
})

describe("optionWarnings", () => {
  it("warns that callbacks go elsewhere when backendUrl is missing", () => {
    const [warning] = optionWarnings(parseCryptoOptions({ apiKey: "k", baseUrl: "http://gw.test" }))
    expect(warning).toMatch(/backendUrl is not set/)
  })

  it("has nothing to say about a complete configuration", () => {
    expect(optionWarnings(parseCryptoOptions(valid))).toEqual([])
  })
})

describe("callbackUrl", () => {
  it("points at the plugin's route and asks for JSON callbacks", () => {
    expect(callbackUrl(parseCryptoOptions(valid), "crypto")).toBe("https://api.shop.test/hooks/crypto/crypto?json=true")
  })
})

describe("returnUrl", () => {
  it("adds the cart id for the storefront's return page", () => {
    const options = parseCryptoOptions({ ...valid, storefrontUrl: "https://shop.test" })
    expect(returnUrl(options, "success", "cart_1")).toBe("https://shop.test/checkout/crypto/return?cart_id=cart_1")
  })

  it("is absent without a storefrontUrl", () => {
    expect(returnUrl(parseCryptoOptions(valid), "fail", "cart_1")).toBeUndefined()
  })
})

describe("shopperMessages", () => {
  it("sends every shopper message with the default templates unless told otherwise", () => {
    const { shopperMessages } = parseCryptoOptions(valid)
    expect(shopperMessages.paymentInstructions).toMatchObject({ template: "crypto-payment-instructions", content: { subject: expect.any(String) } })
    expect(shopperMessages.paymentReceived).toMatchObject({ template: "crypto-payment-received" })
    expect(shopperMessages.underpaid).toMatchObject({ template: "crypto-payment-underpaid" })
  })

  it("turns every message off with false", () => {
    expect(parseCryptoOptions({ ...valid, shopperMessages: false }).shopperMessages).toEqual({ paymentInstructions: null, paymentReceived: null, underpaid: null, refundClaimable: null })
  })

  it("turns one message off, names another's provider template without content, and replaces a third's subject only", () => {
    const { shopperMessages } = parseCryptoOptions({
      ...valid,
      shopperMessages: {
        paymentInstructions: false,
        paymentReceived: { template: "d-4f2a", content: false },
        underpaid: { content: { subject: "Still due: {{due_with_coin}}" } },
      },
    })
    expect(shopperMessages.paymentInstructions).toBeNull()
    expect(shopperMessages.paymentReceived).toEqual({ template: "d-4f2a", content: null })
    expect(shopperMessages.underpaid?.content?.subject).toBe("Still due: {{due_with_coin}}")
    expect(shopperMessages.underpaid?.content?.text).toContain("{{received_with_coin}}")
  })

  it("refuses a value that is neither true, false nor an object, naming the option", () => {
    expect(messageOf({ ...valid, shopperMessages: "yes" })).toMatch(/shopperMessages must be true, false, or an object with paymentInstructions, paymentReceived, underpaid/)
  })

  it("names a misspelt message with its path", () => {
    expect(messageOf({ ...valid, shopperMessages: { paymentRecieved: false } })).toMatch(/unknown option\(s\) shopperMessages\.paymentRecieved/)
  })

  it("refuses a placeholder the message does not have, naming the option and the placeholders it has", () => {
    expect(messageOf({ ...valid, shopperMessages: { underpaid: { content: { subject: "Pay {{amount}}" } } } })).toMatch(
      /shopperMessages\.underpaid\.content\.subject: unknown placeholder \{\{amount\}\}; this message has received_amount, /
    )
  })

  it("refuses a section that is never closed", () => {
    expect(messageOf({ ...valid, shopperMessages: { paymentReceived: { content: { text: "{{#order_display_id}}Order" } } } })).toMatch(
      /shopperMessages\.paymentReceived\.content\.text: \{\{#order_display_id\}\} is never closed/
    )
  })

  it("refuses an unknown field of one message, naming the message", () => {
    expect(messageOf({ ...valid, shopperMessages: { underpaid: { templat: "d-1" } } })).toMatch(/shopperMessages\.underpaid must be true, false or an object with template and\/or content/)
  })

  it("refuses an empty template name, naming the option", () => {
    expect(messageOf({ ...valid, shopperMessages: { paymentReceived: { template: " " } } })).toMatch(/shopperMessages\.paymentReceived\.template is empty/)
  })
})
