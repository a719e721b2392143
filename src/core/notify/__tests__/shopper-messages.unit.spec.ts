import { DEFAULT_SHOPPER_MESSAGES, renderTemplate, resolveShopperMessages, SHOPPER_MESSAGE_KINDS, SHOPPER_MESSAGE_PLACEHOLDERS, templateProblem, type ShopperMessageKind } from "../../config/message-templates"
import { invoiceCreatedEvent } from "../../events"
import { amountWithCoin, instructionsData, receivedData, refundClaimableData, renderShopperMessage, shopperMessagesUnavailable, underpaidData } from "../shopper-messages"

const messages = resolveShopperMessages(undefined)
const message = (kind: ShopperMessageKind) => {
  const resolved = messages[kind]
  if (resolved === null) throw new Error(`${kind} is off by default`)
  return resolved
}

const whiteLabelInstructions = instructionsData({
  psys_cid: "USDT_TRX",
  currency: "USDT",
  amount: "25.070000",
  address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
  expires_at: "2026-11-26T21:34:00.000Z",
  invoice_url: "https://gateway.test/invoice/abc",
  return_url: "https://shop.test/checkout/crypto/return?cart_id=cart_1",
})
const received = receivedData({
  psys_cid: "LTC",
  currency: "LTC",
  received: "0.33400000",
  order_id: "order_1",
  order_display_id: "1042",
  return_url: "https://shop.test/checkout/crypto/return?cart_id=cart_1",
})
const underpaid = underpaidData({
  psys_cid: "BTC",
  currency: "BTC",
  received: "0.0005",
  expected: "0.00123456",
  pay_rest_until: new Date("2026-11-27T20:00:00.000Z"),
  return_url: "https://shop.test/checkout/crypto/return?cart_id=cart_1",
})
const refundClaimable = refundClaimableData({
  psys_cid: "USDT_TRX",
  amount: "12.50",
  order_display_id: "1042",
  claim_url: "https://shop.test/checkout/crypto/refund?token=abc",
  expires_at: "2026-12-03T20:00:00.000Z",
})
const full = { paymentInstructions: whiteLabelInstructions, paymentReceived: received, underpaid, refundClaimable } as const

const everyText = (rendered: ReturnType<typeof renderShopperMessage>) => {
  if (rendered.content === undefined) throw new Error("no content")
  return [rendered.content.subject, rendered.content.text, rendered.content.html]
}

describe("the default shopper messages", () => {
  it.each(SHOPPER_MESSAGE_KINDS)("%s uses only its own placeholders and closes every section", (kind) => {
    for (const field of ["subject", "text", "html"] as const) {
      expect(templateProblem(kind, DEFAULT_SHOPPER_MESSAGES[kind][field])).toBeNull()
    }
  })

  it.each(SHOPPER_MESSAGE_KINDS)("%s with every value: every placeholder filled, no undefined or null text", (kind) => {
    const rendered = renderShopperMessage(message(kind), full[kind])
    expect(Object.keys(rendered.data).sort()).toEqual([...SHOPPER_MESSAGE_PLACEHOLDERS[kind]].sort())
    for (const text of everyText(rendered)) {
      expect(text).not.toMatch(/\{\{|\}\}|undefined|null|NaN|\[object/)
    }
  })

  it.each(SHOPPER_MESSAGE_KINDS)("%s with every value it may lack missing: still no undefined or null text", (kind) => {
    const sparse = Object.fromEntries(Object.entries(full[kind]).map(([name, value]) => [name, kind === "underpaid" && !name.startsWith("pay_rest") && name !== "return_url" ? value : null]))
    for (const text of everyText(renderShopperMessage(message(kind), sparse))) {
      expect(text).not.toMatch(/\{\{|\}\}|undefined|null|NaN/)
    }
  })

  it("tells the shopper of a refund to claim the amount with its coin and network, the order, the link and until when it works", () => {
    const rendered = renderShopperMessage(message("refundClaimable"), refundClaimable)
    const [subject, text, html] = everyText(rendered)
    expect(subject).toBe("Your refund of 12.5 USDT_TRX for order #1042: tell us where to send it")
    expect(text).toContain("on the TRX network")
    expect(text).toContain("https://shop.test/checkout/crypto/refund?token=abc")
    expect(text).toContain("until 2026-12-03 20:00 UTC")
    expect(html).toContain('<a href="https://shop.test/checkout/crypto/refund?token=abc">')
    expect(rendered.template).toBe("crypto-refund-claimable")
  })

  it("tells the white-label shopper the exact amount with its coin and network, the address, the expiry and both links", () => {
    const rendered = renderShopperMessage(message("paymentInstructions"), whiteLabelInstructions)
    expect(rendered.content?.subject).toBe("Send 25.07 USDT (USDT_TRX) to complete your order")
    expect(rendered.content?.text).toContain("Amount to send: 25.07 USDT (USDT_TRX) (the full amount, any commission included).")
    expect(rendered.content?.text).toContain("Address: TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE")
    expect(rendered.content?.text).toContain("Pay before: 2026-11-26 21:34 UTC")
    expect(rendered.content?.text).toContain("Payment page: https://gateway.test/invoice/abc")
    expect(rendered.content?.text).toContain("Back to the shop: https://shop.test/checkout/crypto/return?cart_id=cart_1")
    expect(rendered.content?.html).toContain('<a href="https://gateway.test/invoice/abc">')
  })

  it("sends a hosted shop's shopper to the payment page to pick a coin when the gateway named no amount", () => {
    const data = instructionsData({ psys_cid: null, currency: null, amount: null, address: null, expires_at: "2026-11-26T21:34:00.000Z", invoice_url: "https://gateway.test/invoice/abc", return_url: null })
    const rendered = renderShopperMessage(message("paymentInstructions"), data)
    expect(rendered.content?.subject).toBe("Complete your order with crypto")
    expect(rendered.content?.text).toContain("Choose your coin on the payment page; it shows the amount to send.")
    expect(rendered.content?.text).not.toContain("Address")
    expect(rendered.content?.text).not.toContain("Back to the shop")
  })

  it("says what was received with its coin and the order's number", () => {
    const rendered = renderShopperMessage(message("paymentReceived"), received)
    expect(rendered.content?.subject).toBe("Payment received for order #1042")
    expect(rendered.content?.text).toContain("We received your crypto payment of 0.334 LTC for order #1042.")
  })

  it("says received X of Y and the rest due, each an exact amount with its coin, and links to the return page", () => {
    expect(underpaid).toMatchObject({ received_amount: "0.0005", expected_amount: "0.00123456", due_amount: "0.00073456", due_with_coin: "0.00073456 BTC" })
    const rendered = renderShopperMessage(message("underpaid"), underpaid)
    expect(rendered.content?.subject).toBe("Your crypto payment is short: 0.00073456 BTC still to pay")
    expect(rendered.content?.text).toContain("We received 0.0005 BTC of the 0.00123456 BTC your order asked for.")
    expect(rendered.content?.text).toContain("Please pay it before 2026-11-27 20:00 UTC.")
    expect(rendered.content?.text).toContain("Pay the rest: https://shop.test/checkout/crypto/return?cart_id=cart_1")
    expect(rendered.content?.text).not.toContain("Go back to the shop's checkout")
  })
})

describe("rendering", () => {
  it("escapes values in html, never in text", () => {
    const data = { address: `<b>"x"&'y'</b>` }
    expect(renderTemplate("{{address}}", data, "html")).toBe("&lt;b&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/b&gt;")
    expect(renderTemplate("{{address}}", data, "text")).toBe(`<b>"x"&'y'</b>`)
  })

  it("keeps a section only with a value and an inverted section only without one", () => {
    expect(renderTemplate("{{#a}}A={{a}}{{/a}}{{^a}}none{{/a}}", { a: "1" }, "text")).toBe("A=1")
    expect(renderTemplate("{{#a}}A={{a}}{{/a}}{{^a}}none{{/a}}", { a: null }, "text")).toBe("none")
    expect(renderTemplate("{{#a}}A={{a}}{{/a}}{{^a}}none{{/a}}", { a: "" }, "text")).toBe("none")
  })

  it("sends the merchant's provider template with the data and no content when content is off", () => {
    const rendered = renderShopperMessage({ template: "d-4f2a", content: null }, received)
    expect(rendered).toEqual({ template: "d-4f2a", data: received })
  })

  it("renders a merchant's own text with the same placeholders", () => {
    const rendered = renderShopperMessage({ ...message("underpaid"), content: { ...DEFAULT_SHOPPER_MESSAGES.underpaid, subject: "Noch offen: {{due_with_coin}}" } }, underpaid)
    expect(rendered.content?.subject).toBe("Noch offen: 0.00073456 BTC")
  })
})

describe("amountWithCoin", () => {
  it("writes the exact decimal with the coin, and the network when the code does not name it", () => {
    expect(amountWithCoin("0.10000000", "BTC", "BTC")).toBe("0.1 BTC")
    expect(amountWithCoin("12.5", "USDT", "USDT_TRX")).toBe("12.5 USDT (USDT_TRX)")
    expect(amountWithCoin("123456789.123456789012", "ETH", "ETH")).toBe("123456789.123456789012 ETH")
  })

  it("is nothing without an amount or a coin", () => {
    expect(amountWithCoin(null, "BTC", "BTC")).toBeNull()
    expect(amountWithCoin("1", null, null)).toBeNull()
  })
})

describe("invoiceCreatedEvent", () => {
  const base = { id: "cinv_1", provider_id: "pp_crypto_crypto", cart_id: "cart_1", psys_cid: "LTC", currency: "LTC", amount: "0.334", invoice_url: "https://gateway.test/i", address: null, expireMinutes: 60, createdAt: new Date("2026-11-26T20:00:00.000Z") }

  it("takes the gateway's expiry (seconds) when it sends one", () => {
    expect(invoiceCreatedEvent({ ...base, expire_utc: 1_795_723_200 }).expires_at).toBe(new Date(1_795_723_200_000).toISOString())
  })

  it("counts expire_min from creation when the gateway sends no expiry (a shop without white-label)", () => {
    expect(invoiceCreatedEvent({ ...base, expire_utc: null }).expires_at).toBe("2026-11-26T21:00:00.000Z")
  })
})

describe("shopperMessagesUnavailable", () => {
  it("says no notification module is registered when medusa-config has none", () => {
    expect(shopperMessagesUnavailable({ modules: {} })).toBe("no notification module is registered")
    expect(shopperMessagesUnavailable({ modules: { notification: { resolve: "@medusajs/medusa/notification", disable: true } } })).toBe("no notification module is registered")
  })

  it("says no provider takes e-mail for Medusa's default (a local provider for the admin feed only)", () => {
    const config = { modules: { notification: { resolve: "@medusajs/medusa/notification", options: { providers: [{ resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels: ["feed"] } }] } } } }
    expect(shopperMessagesUnavailable(config)).toBe('no notification provider is registered for the "email" channel')
  })

  it("finds a provider for the email channel, or Medusa Cloud's e-mail", () => {
    const local = { resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels: ["email"] } }
    expect(shopperMessagesUnavailable({ modules: { notification: { options: { providers: [local] } } } })).toBeNull()
    const cloud = { api_key: "k", endpoint: "https://emails.test", environment_handle: "env" }
    expect(shopperMessagesUnavailable({ modules: { notification: { options: { providers: [], cloud } } } })).toBeNull()
  })
})
