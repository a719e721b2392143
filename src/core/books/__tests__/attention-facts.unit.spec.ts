import { attentionFacts, gatewayStatusWords, isRefundableAttention, moneyFact, orderFacts, type AttentionFactsInvoice, type AttentionFactsItem } from "../attention-facts"
import { withAttentionFacts, type AttentionFactsReaders, type AttentionQueueItem } from "../attention-queue"
import { GatewayStatus } from "../../payment/payment-state"

const invoice = (overrides: Partial<AttentionFactsInvoice> = {}): AttentionFactsInvoice => ({
  id: "cinv_1",
  psys_cid: "BTC",
  source_currency: "eur",
  source_amount: "84.90",
  expected_amount: "0.00137199",
  received_amount: "0.0006",
  gateway_status: GatewayStatus.Expired,
  source_rate: null,
  ...overrides,
})

const item = (overrides: Partial<AttentionFactsItem> = {}): AttentionFactsItem => ({
  kind: "underpaid",
  source: "attention",
  subject_id: "cinv_1",
  psys_cid: "BTC",
  amount: "0.0006",
  evidence: { gateway_status: GatewayStatus.Expired, expected: "0.00137199", received: "0.0006", within_tolerance: false, refund_due: "0.0006" },
  created_at: new Date(Date.UTC(2026, 10, 26, 17, 49, 26)),
  ...overrides,
})

describe("the facts of a Needs-attention item (docs/attention.md#reading-an-item)", () => {
  describe("an underpayment whose order still waits for the rest (docs/attention.md#paying-the-rest)", () => {
    const now = new Date("2026-11-27T01:00:00.000Z")
    it("says until when the shopper may still pay the rest", () => {
      const facts = attentionFacts(item(), invoice({ rest_until: new Date("2026-11-28T01:00:00.000Z") }), null, now)
      expect(facts.rest_due_until).toBe("2026-11-28T01:00:00.000Z")
    })
    it("says nothing once the wait is over, for a shortfall within the tolerance, or for another kind", () => {
      expect(attentionFacts(item(), invoice({ rest_until: "2026-11-27T00:59:59.000Z" }), null, now).rest_due_until).toBeNull()
      expect(attentionFacts(item(), invoice({ rest_until: null }), null, now).rest_due_until).toBeNull()
      const within = item({ evidence: { ...item().evidence, within_tolerance: true } })
      expect(attentionFacts(within, invoice({ rest_until: "2026-11-28T01:00:00.000Z" }), null, now).rest_due_until).toBeNull()
      expect(attentionFacts(item({ kind: "overpaid" }), invoice({ rest_until: "2026-11-28T01:00:00.000Z" }), null, now).rest_due_until).toBeNull()
    })
  })

  it("an underpayment beyond the tolerance: expected, received and due back in the coin and in the store's currency at the invoice's rate", () => {
    const facts = attentionFacts(item(), invoice(), null)
    expect(facts.invoice).toEqual({
      expected: { amount: "0.00137199", coin: "BTC", fiat: { amount: "84.90", currency: "EUR" } },
      received: { amount: "0.0006", coin: "BTC", fiat: { amount: "37.13", currency: "EUR" } },
      due: { amount: "0.0006", coin: "BTC", fiat: { amount: "37.13", currency: "EUR" } },
      shortfall: null,
    })
    expect(facts.refundable).toBe(true)
    expect(facts.gateway_status).toBe("expired after a partial payment")
    expect(facts.when).toBe("2026-11-26T17:49:26.000Z")
  })

  it("the expected amount is worth exactly the invoice's source_amount: the product is taken before the quotient", () => {
    expect(moneyFact("0.00137199", "BTC", { times: "84.90", per: "0.00137199", source: "derived" }, "EUR").fiat).toEqual({ amount: "84.90", currency: "EUR" })
    expect(moneyFact("1", "BTC", { times: "100", per: "3", source: "derived" }, "EUR").fiat).toEqual({ amount: "33.33", currency: "EUR" })
  })

  it("rounds the fiat value half up to the currency's minor units", () => {
    expect(moneyFact("0.5", "LTC", { times: "0.25", per: "1", source: "gateway" }, "eur").fiat).toEqual({ amount: "0.13", currency: "EUR" })
    expect(moneyFact("0.5", "LTC", { times: "1734.5", per: "0.5", source: "derived" }, "JPY").fiat).toEqual({ amount: "1735", currency: "JPY" })
  })

  it("values at the invoice's own gateway rate (source_rate, fiat per coin) when the row has one: one rule with the export and the charts", () => {
    const facts = attentionFacts(item(), invoice({ source_rate: "61881.5" }), null)
    expect(facts.invoice?.expected?.fiat).toEqual({ amount: "84.90", currency: "EUR" })
    expect(facts.invoice?.received?.fiat).toEqual({ amount: "37.13", currency: "EUR" })
  })

  it("takes the gateway's source_rate (fiat per coin) when the expected amount is unknown", () => {
    const facts = attentionFacts(item({ evidence: { received: "0.0006" } }), invoice({ expected_amount: null, source_rate: "60000" }), null)
    expect(facts.invoice?.received).toEqual({ amount: "0.0006", coin: "BTC", fiat: { amount: "36.00", currency: "EUR" } })
  })

  it("ignores a source_rate that is not a decimal string, and a missing one", () => {
    const unknownExpected = item({ evidence: { received: "0.0006" } })
    expect(attentionFacts(unknownExpected, invoice({ expected_amount: null, source_rate: 60000 }), null).invoice?.received?.fiat).toBeNull()
    const { source_rate: _omitted, ...older } = invoice()
    expect(attentionFacts(item(), older, null).invoice?.received?.fiat).toEqual({ amount: "37.13", currency: "EUR" })
  })

  it("a payment on a sibling of a currency switch is valued at the sibling's own rate (same fiat amount, its coin), never the invoice's source_rate", () => {
    const duplicate = item({
      kind: "duplicate_invoice_payment",
      subject_id: "cinv_1:INV-LTC",
      psys_cid: "LTC",
      amount: "1.5",
      evidence: { invoice_id: "cinv_1", gateway_status: GatewayStatus.CancelledDuplicate, expected: "1.5", received: "1.5" },
    })
    const facts = attentionFacts(duplicate, invoice({ source_rate: "60000" }), null)
    expect(facts.invoice?.received).toEqual({ amount: "1.5", coin: "LTC", fiat: { amount: "84.90", currency: "EUR" } })
    const withoutExpected = attentionFacts({ ...duplicate, evidence: { invoice_id: "cinv_1", received: "1.5" } }, invoice({ source_rate: "60000" }), null)
    expect(withoutExpected.invoice?.received?.fiat).toBeNull()
    expect(facts.invoice?.due).toEqual({ amount: "1.5", coin: "LTC", fiat: { amount: "84.90", currency: "EUR" } })
    expect(facts.gateway_status).toBe("replaced by an invoice in another coin, and paid anyway")
  })

  it("a shortfall accepted within the tolerance is nothing to send back: no due, the shortfall shown, not refundable", () => {
    const facts = attentionFacts(item({ amount: "0.00001", evidence: { gateway_status: GatewayStatus.Expired, expected: "0.00137199", received: "0.00136199", within_tolerance: true } }), invoice(), null)
    expect(facts.invoice?.due).toBeNull()
    expect(facts.invoice?.shortfall).toEqual({ amount: "0.00001", coin: "BTC", fiat: { amount: "0.62", currency: "EUR" } })
    expect(facts.refundable).toBe(false)
  })

  it("without an expected amount or a rate, the amounts are shown in the coin only", () => {
    const facts = attentionFacts(item({ evidence: { received: "0.0006" } }), invoice({ expected_amount: null }), null)
    expect(facts.invoice?.expected).toBeNull()
    expect(facts.invoice?.received).toEqual({ amount: "0.0006", coin: "BTC", fiat: null })
  })

  it("reads the invoice row when the evidence has no amounts", () => {
    const facts = attentionFacts(item({ kind: "overpaid", amount: "0.0002", evidence: {} }), invoice({ received_amount: "0.00157199", gateway_status: GatewayStatus.Mismatch }), null)
    expect(facts.invoice?.expected?.amount).toBe("0.00137199")
    expect(facts.invoice?.received?.amount).toBe("0.00157199")
    expect(facts.gateway_status).toBe("paid more than asked")
  })

  it("an item not about an invoice has no invoice facts and no gateway words (a withdrawal's status is not an invoice's)", () => {
    const facts = attentionFacts(item({ kind: "refund_unknown", source: "withdrawal", subject_id: "cwd_1", evidence: { gateway_status: "error" } }), null, null)
    expect(facts).toMatchObject({ invoice: null, refundable: false, gateway_status: null })
  })

  it("an order's facts: display id, status, e-mail, the customer's name, else the shipping address's", () => {
    expect(orderFacts({ id: "order_1", display_id: 12, status: "canceled", email: "a@example.com", customer: { first_name: "Ada", last_name: "Lovelace" } })).toEqual({
      id: "order_1",
      display_id: 12,
      status: "canceled",
      email: "a@example.com",
      customer_name: "Ada Lovelace",
    })
    expect(orderFacts({ id: "order_2", display_id: "7", customer: { first_name: null, last_name: "" }, shipping_address: { first_name: "Grace", last_name: null } })).toMatchObject({
      display_id: 7,
      email: null,
      customer_name: "Grace",
    })
  })
})

describe("the gateway's status in words (spec §3)", () => {
  it.each([
    [GatewayStatus.Expired, "0.0006", "0.00137199", "expired after a partial payment"],
    [GatewayStatus.Expired, "0.00137199", "0.00137199", "expired, then paid after its end"],
    [GatewayStatus.Expired, "0", "0.00137199", "expired unpaid"],
    [GatewayStatus.Completed, "0.00137199", "0.00137199", "paid in full"],
    [GatewayStatus.Mismatch, "0.002", "0.00137199", "paid more than asked"],
    [GatewayStatus.Cancelled, "0", "0.00137199", "cancelled unpaid"],
    [GatewayStatus.Error, null, null, "in error at the gateway"],
    ["frozen", null, null, '"frozen" (a status this plugin does not know)'],
  ])("%s with %s of %s received: %s", (status, received, expected, words) => {
    expect(gatewayStatusWords(status, received, expected)).toBe(words)
  })

  it("no status seen: null", () => {
    expect(gatewayStatusWords(null, "1", "1")).toBeNull()
  })
})

describe("which items the refund action may send back", () => {
  it("stored items with a coin and a positive amount, except a shortfall within the tolerance", () => {
    expect(isRefundableAttention(item())).toBe(true)
    expect(isRefundableAttention(item({ kind: "protected_order", evidence: { reason: "canceled" } }))).toBe(true)
    expect(isRefundableAttention(item({ evidence: { within_tolerance: true } }))).toBe(false)
    expect(isRefundableAttention(item({ amount: null }))).toBe(false)
    expect(isRefundableAttention(item({ psys_cid: null }))).toBe(false)
    expect(isRefundableAttention(item({ kind: "refund_unknown", source: "withdrawal" }))).toBe(false)
  })
})

describe("a page of items with their facts", () => {
  const queued = (id: string, overrides: Partial<AttentionQueueItem> = {}): AttentionQueueItem => ({
    id,
    kind: "overpaid",
    source: "attention",
    provider_id: "pp_crypto_crypto",
    subject_id: "cinv_1",
    order_id: "order_1",
    cart_id: null,
    psys_cid: "BTC",
    currency: "BTC",
    amount: "0.0002",
    evidence: {},
    status: "open",
    withdrawal_id: null,
    created_at: new Date(Date.UTC(2026, 10, 26)),
    ...overrides,
  })

  it("reads the invoices and the orders of the whole page once each, and joins them to their items", async () => {
    const calls: string[][] = []
    const readers: AttentionFactsReaders = {
      invoices: async (ids) => {
        calls.push(ids)
        return [invoice()]
      },
      orders: async (ids) => {
        calls.push(ids)
        return [{ id: "order_1", display_id: 12 }]
      },
    }
    const page = await withAttentionFacts(
      [queued("catt_1"), queued("catt_2", { kind: "late_payment" }), queued("cwd_1", { source: "withdrawal", subject_id: "cwd_1", order_id: "order_gone" })],
      readers,
    )
    expect(calls).toEqual([["cinv_1"], ["order_1", "order_gone"]])
    expect(page.map((entry) => [entry.id, entry.facts.order?.display_id ?? null, entry.facts.invoice?.expected?.amount ?? null])).toEqual([
      ["catt_1", 12, "0.00137199"],
      ["catt_2", 12, "0.00137199"],
      ["cwd_1", null, null],
    ])
  })

  it("an empty page reads nothing", async () => {
    const fail = async (): Promise<never> => {
      throw new Error("read")
    }
    await expect(withAttentionFacts([], { invoices: fail, orders: fail })).resolves.toEqual([])
  })
})
