import { CryptoEvents, type CryptoInvoiceCreatedEvent, type CryptoMoneyEvent } from "../../core/events"
import { config, shopperMessageOf } from "../crypto-shopper-messages"

const money: CryptoMoneyEvent = { id: "cinv_1", provider_id: "pp_crypto_crypto", order_id: "order_1", psys_cid: "LTC", currency: "LTC", amount: "0.334", subject_id: "cinv_1" }

describe("the shopper messages subscriber", () => {
  it("listens to the four events that start a shopper message", () => {
    expect(config.event).toEqual([CryptoEvents.INVOICE_CREATED, CryptoEvents.PAYMENT_RECEIVED, CryptoEvents.PAYMENT_UNDERPAID, CryptoEvents.REFUND_CLAIMABLE])
  })

  it("asks for the refund-to-claim message with the claim and its link", () => {
    const claim = { id: "crcl_1", provider_id: "pp_crypto_crypto", order_id: "order_1", psys_cid: "USDT_TRX", amount: "12.5", link: "https://shop.test/checkout/crypto/refund?token=t", expires_at: "2026-12-03T20:00:00.000Z" }
    expect(shopperMessageOf(CryptoEvents.REFUND_CLAIMABLE, claim)).toEqual({ kind: "refundClaimable", provider_id: "pp_crypto_crypto", claim })
  })

  it("asks for the payment instructions of a created invoice, with the invoice as the gateway created it", () => {
    const invoice: CryptoInvoiceCreatedEvent = { id: "cinv_1", provider_id: "pp_crypto_crypto", cart_id: "cart_1", psys_cid: "LTC", currency: "LTC", amount: "0.334", invoice_url: null, address: null, expires_at: null }
    expect(shopperMessageOf(CryptoEvents.INVOICE_CREATED, invoice)).toEqual({ kind: "paymentInstructions", provider_id: "pp_crypto_crypto", invoice })
  })

  it("asks for payment received about the captured invoice", () => {
    expect(shopperMessageOf(CryptoEvents.PAYMENT_RECEIVED, money)).toEqual({ kind: "paymentReceived", provider_id: "pp_crypto_crypto", invoice_id: "cinv_1" })
  })

  it("asks for the rest about the underpaid attention item", () => {
    expect(shopperMessageOf(CryptoEvents.PAYMENT_UNDERPAID, { ...money, id: "catt_1", kind: "underpaid" })).toEqual({ kind: "underpaid", provider_id: "pp_crypto_crypto", attention_id: "catt_1" })
  })

  it("asks for nothing about any other event", () => {
    expect(shopperMessageOf(CryptoEvents.PAYMENT_OVERPAID, money)).toBeUndefined()
  })
})
