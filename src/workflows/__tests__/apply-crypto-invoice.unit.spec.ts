import { PaymentActions } from "@medusajs/framework/utils"
import type { CryptoSessionStatus } from "../../core/payment/payment-state"
import { invoiceStateOf, type CryptoInvoiceAssessment, type CryptoInvoiceState } from "../steps/assess-crypto-invoice"
import { applyCryptoInvoice, type ApplyDeps } from "../steps/apply-crypto-invoice"

type Row = Record<string, unknown>

/** The row as the assess step hands it to the apply step: read under the lock, as it is now. */
const stateOf = (row: Row): CryptoInvoiceState => invoiceStateOf(row as Parameters<typeof invoiceStateOf>[0])

/** One invoice mirror row, Medusa's rows as Query returns them, and a record of every move. */
function world(invoiceOverrides: Row = {}) {
  const invoice: Row = {
    id: "cinv_1",
    order_number: "cart_1",
    cart_id: "cart_1",
    session_id: "payses_1",
    session_status: "pending",
    order_id: null,
    expected_amount: "0.000175",
    psys_cid: "BTC",
    currency: "BTC",
    errored_at: null,
    superseded_by: null,
    ...invoiceOverrides,
  }
  const medusa = {
    sessions: [{ id: "payses_1", raw_amount: { value: "123456789.123456789012", precision: 20 } }] as Row[],
    payments: [] as Row[],
    orderOfCart: null as string | null,
    order: { id: "order_1", status: "pending", payment_collections: [{ payments: [{ captured_at: null }] }] } as Row,
    /** Confirmed order changes (edit, claim, exchange) a person made by hand. */
    orderChanges: [] as Row[],
  }
  const moves: string[] = []
  const warnings: string[] = []
  const deps: ApplyDeps = {
    cryptoModule: {
      updateCryptoInvoices: (async (data: Row) => Object.assign(invoice, data)) as unknown as ApplyDeps["cryptoModule"]["updateCryptoInvoices"],
    },
    query: {
      graph: async ({ entity }) => {
        if (entity === "payment_session") return { data: medusa.sessions }
        if (entity === "payment") return { data: medusa.payments }
        if (entity === "order_cart") return { data: medusa.orderOfCart === null ? [] : [{ order_id: medusa.orderOfCart }] }
        if (entity === "order") return { data: [medusa.order] }
        if (entity === "order_change") return { data: medusa.orderChanges }
        return { data: [] }
      },
    },
    logger: { warn: (message: string) => void warnings.push(message) },
    // Medusa's workflows as they leave Medusa: a captured payment and the order placed, or the
    // session's cart completed and the order placed with the payment awaiting, ...
    processPayment: async (action, sessionId, amount) => {
      const captured = action === PaymentActions.SUCCESSFUL
      moves.push(captured ? `capture ${sessionId} ${amount}` : `complete ${sessionId}`)
      medusa.payments = [{ id: "pay_1", captured_at: captured ? new Date() : null }]
      medusa.orderOfCart = "order_1"
    },
    // ... the order canceled.
    cancelOrder: async (orderId) => {
      moves.push(`cancel ${orderId}`)
      medusa.order = { ...medusa.order, status: "canceled" }
    },
  }
  return { invoice, medusa, moves, warnings, deps }
}

const assessment = (sessionStatus: CryptoSessionStatus | null, gatewayStatus: string | null, extra: Partial<CryptoInvoiceAssessment> = {}): CryptoInvoiceAssessment => ({
  invoice_id: "cinv_1",
  kind: null,
  capture_received: null,
  session_status: sessionStatus,
  gateway_status: gatewayStatus,
  active_txn_id: gatewayStatus === null ? null : "INV-1",
  received_amount: null,
  expected_amount: null,
  overpaid_amount: null,
  underpaid_amount: null,
  refund_due_amount: null,
  psys_cid: null,
  currency: null,
  siblings_with_money: null,
  ...extra,
})

describe("applyCryptoInvoice", () => {
  it("stores the amounts with the coin of the invoice that holds them after a currency switch", async () => {
    const { deps, invoice } = world()
    await applyCryptoInvoice(assessment("captured", "mismatch", { kind: "paid", active_txn_id: "INV-2", received_amount: "0.3", overpaid_amount: "0.1", psys_cid: "LTC", currency: "LTC" }), stateOf(invoice), deps)
    expect(invoice).toMatchObject({ psys_cid: "LTC", currency: "LTC", active_txn_id: "INV-2", overpaid_amount: "0.1" })
  })

  it("stores the shortfall of an underpayment accepted within the tolerance", async () => {
    const { deps, invoice } = world()
    await applyCryptoInvoice(assessment("captured", "expired", { kind: "paid", received_amount: "0.00017", underpaid_amount: "0.000005" }), stateOf(invoice), deps)
    expect(invoice).toMatchObject({ underpaid_amount: "0.000005", session_status: "captured" })
  })

  it("captures an invoice applied as error once the gateway reports it completed", async () => {
    const { deps, moves, invoice } = world({ session_status: "error", errored_at: new Date() })
    const applied = await applyCryptoInvoice(assessment("captured", "completed", { kind: "paid" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "applied", session_status: "captured" })
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
  })

  it("moves nothing for an invoice a new amount superseded, even when paid", async () => {
    const { deps, moves, invoice } = world({ superseded_by: "cinv_2" })
    const applied = await applyCryptoInvoice(assessment("captured", "completed", { kind: "paid", received_amount: "0.000175" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "superseded" })
    expect(moves).toEqual([])
  })

  it("records money seen on a canceled invoice (a late payment) without moving Medusa", async () => {
    const { deps, moves, invoice } = world({ session_status: "canceled", received_amount: null })
    const applied = await applyCryptoInvoice(assessment("captured", "completed", { kind: "paid", received_amount: "0.000175", psys_cid: "BTC" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "ignored_backward", session_status: "canceled" })
    expect(invoice).toMatchObject({ received_amount: "0.000175", session_status: "canceled" })
    expect(moves).toEqual([])
  })

  it("moves nothing for an invoice that never reached the gateway", async () => {
    const { deps, moves, invoice } = world()
    expect(await applyCryptoInvoice(assessment(null, null), stateOf(invoice), deps)).toEqual({ invoice_id: "cinv_1", outcome: "not_created", session_status: "pending", order_id: null })
    expect(moves).toEqual([])
  })

  it("captures the session amount, exact, when the gateway says paid, and records the order", async () => {
    const { deps, moves, invoice } = world()
    const applied = await applyCryptoInvoice(assessment("captured", "completed", { received_amount: "0.000175" }), stateOf(invoice), deps)
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
    expect(applied).toEqual({ invoice_id: "cinv_1", outcome: "applied", session_status: "captured", order_id: "order_1" })
    expect(invoice).toMatchObject({ session_status: "captured", order_id: "order_1", gateway_status: "completed", received_amount: "0.000175" })
  })

  it("does not capture twice: a captured payment with its order already placed moves nothing", async () => {
    const { deps, moves, medusa, invoice } = world()
    medusa.payments = [{ id: "pay_1", captured_at: new Date() }]
    medusa.orderOfCart = "order_1"
    expect((await applyCryptoInvoice(assessment("captured", "completed"), stateOf(invoice), deps)).outcome).toBe("applied")
    expect(moves).toEqual([])
  })

  it("places the order on detection by completing the cart", async () => {
    const { deps, moves, invoice } = world()
    const applied = await applyCryptoInvoice(assessment("pending_authorization", "pending"), stateOf(invoice), deps)
    expect(moves).toEqual(["complete payses_1"])
    expect(applied).toMatchObject({ outcome: "applied", session_status: "pending_authorization", order_id: "order_1" })
  })

  it("keeps the applied state when the cart could not be completed, so the job retries", async () => {
    const { deps, invoice, warnings } = world()
    deps.processPayment = async () => undefined
    const applied = await applyCryptoInvoice(assessment("pending_authorization", "pending"), stateOf(invoice), deps)
    expect(applied).toEqual({ invoice_id: "cinv_1", outcome: "incomplete", session_status: "pending", order_id: null })
    expect(invoice.session_status).toBe("pending")
    expect(warnings).toEqual(["crypto invoice cart_1: cart cart_1 could not be completed yet; the reconciliation job will retry"])
  })

  it("cancels an order placed on detection when the invoice fails", async () => {
    const { deps, moves, medusa, invoice } = world({ session_status: "pending_authorization", order_id: "order_1" })
    medusa.orderOfCart = "order_1"
    const applied = await applyCryptoInvoice(assessment("canceled", "expired", { refund_due_amount: "0.0001" }), stateOf(invoice), deps)
    expect(moves).toEqual(["cancel order_1"])
    expect(applied).toMatchObject({ outcome: "applied", session_status: "canceled" })
  })

  it("never cancels an order whose payment is captured, and says so", async () => {
    const { deps, moves, medusa, warnings, invoice } = world({ session_status: "pending_authorization", order_id: "order_1" })
    medusa.orderOfCart = "order_1"
    medusa.order = { id: "order_1", status: "pending", payment_collections: [{ payments: [{ captured_at: new Date() }] }] }
    await applyCryptoInvoice(assessment("canceled", "expired"), stateOf(invoice), deps)
    expect(moves).toEqual([])
    expect(warnings).toEqual(["crypto invoice cart_1: order order_1 has a captured payment; it is not canceled automatically"])
  })

  it("ignores a late pending after captured and keeps the captured state", async () => {
    const { deps, moves, invoice } = world({ session_status: "captured", order_id: "order_1" })
    const applied = await applyCryptoInvoice(assessment("pending_authorization", "pending"), stateOf(invoice), deps)
    expect(applied).toEqual({ invoice_id: "cinv_1", outcome: "ignored_backward", session_status: "captured", order_id: "order_1" })
    expect(moves).toEqual([])
    expect(invoice.session_status).toBe("captured")
  })

  it("warns when a terminal state is contradicted by the gateway, moving nothing", async () => {
    const { deps, moves, warnings, invoice } = world({ session_status: "canceled" })
    await applyCryptoInvoice(assessment("captured", "completed", { received_amount: "1" }), stateOf(invoice), deps)
    expect(moves).toEqual([])
    expect(warnings).toEqual(["crypto invoice cart_1: the gateway now says completed after canceled was applied; nothing moved (money received: 1)"])
  })

  it("never marks captured an invoice whose payment session Medusa deleted (the cart changed): it is abandoned, with the gateway's reading kept", async () => {
    const { deps, moves, medusa, invoice } = world()
    medusa.sessions = []
    const applied = await applyCryptoInvoice(assessment("captured", "completed", { kind: "paid", received_amount: "0.000175", psys_cid: "LTC", currency: "LTC" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "session_gone", session_status: "abandoned" })
    expect(moves).toEqual([])
    expect(invoice).toMatchObject({ session_status: "abandoned", gateway_status: "completed", received_amount: "0.000175", psys_cid: "LTC", currency: "LTC" })
  })

  it("keeps a canceled invoice canceled when the cart changes after it (money then is a late payment, not an abandoned one)", async () => {
    const { deps, medusa, invoice, moves } = world({ session_status: "canceled", received_amount: "0.0001", refund_due_amount: "0.0001" })
    medusa.sessions = []
    const applied = await applyCryptoInvoice(assessment("canceled", "expired", { kind: "failed", received_amount: "0.00015", refund_due_amount: "0.00015" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "applied", session_status: "canceled" })
    expect(invoice).toMatchObject({ session_status: "canceled", received_amount: "0.00015", refund_due_amount: "0.0001" })
    expect(moves).toEqual([])
  })

  it("keeps a captured invoice captured when its session is gone", async () => {
    const { deps, medusa, invoice } = world({ session_status: "captured", order_id: "order_1" })
    medusa.sessions = []
    const applied = await applyCryptoInvoice(assessment("captured", "mismatch", { kind: "paid", received_amount: "0.0002", overpaid_amount: "0.000025" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "applied", session_status: "captured", order_id: "order_1" })
    expect(invoice).toMatchObject({ session_status: "captured", overpaid_amount: "0.000025" })
  })

  it("keeps an abandoned invoice abandoned when the gateway reports more, without moving Medusa", async () => {
    const { deps, moves, medusa, invoice } = world({ session_status: "abandoned", received_amount: "0.0001" })
    medusa.sessions = []
    const applied = await applyCryptoInvoice(assessment("captured", "mismatch", { kind: "paid", received_amount: "0.0002", overpaid_amount: "0.000025" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "session_gone", session_status: "abandoned" })
    expect(moves).toEqual([])
    expect(invoice).toMatchObject({ session_status: "abandoned", gateway_status: "mismatch", received_amount: "0.0002" })
  })

  it("captures an abandoned invoice again paying a live session (the cart went back to its amount and the invoice was reused)", async () => {
    const { deps, moves, invoice } = world({ session_status: "abandoned" })
    const applied = await applyCryptoInvoice(assessment("captured", "completed", { kind: "paid", received_amount: "0.000175" }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "applied", session_status: "captured" })
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
  })

  it("keeps what was owed back at cancellation when late money leaves the invoice short (still canceled), so the next late payment is counted from it", async () => {
    const { deps, invoice } = world({ session_status: "canceled", received_amount: "0.0001", refund_due_amount: "0.0001" })
    await applyCryptoInvoice(assessment("canceled", "expired", { kind: "failed", received_amount: "0.00015", refund_due_amount: "0.00015" }), stateOf(invoice), deps)
    expect(invoice).toMatchObject({ received_amount: "0.00015", refund_due_amount: "0.0001", session_status: "canceled" })
  })

  it("keeps what was owed back at cancellation when late money arrives, so the late amount is counted once however often it is synced", async () => {
    const { deps, invoice } = world({ session_status: "canceled", received_amount: "0.0001", refund_due_amount: "0.0001" })
    await applyCryptoInvoice(assessment("captured", "expired", { kind: "paid", received_amount: "0.000175" }), stateOf(invoice), deps)
    expect(invoice).toMatchObject({ received_amount: "0.000175", refund_due_amount: "0.0001", session_status: "canceled" })
  })

  it("moves nothing on a gateway error, keeps the payment open and logs it", async () => {
    const { deps, moves, warnings, invoice } = world()
    const applied = await applyCryptoInvoice(assessment("error", "error"), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "applied", session_status: "error" })
    expect(moves).toEqual([])
    expect(warnings).toEqual(["crypto invoice cart_1: the gateway reports an error; the payment stays open for a manual check"])
  })
})

// The step has no compensation (docs/workflows.md): run twice with the same assessment, on fakes whose
// Medusa state follows each move, the second run moves nothing.
describe("applyCryptoInvoice run twice with the same assessment", () => {
  it("captures once: the second run finds the payment captured and the order placed, and moves nothing", async () => {
    const { deps, moves, invoice } = world()
    const paid = assessment("captured", "completed", { received_amount: "0.000175" })
    const first = await applyCryptoInvoice(paid, stateOf(invoice), deps)
    const after = { ...invoice, last_synced_at: undefined }
    const second = await applyCryptoInvoice(paid, stateOf(invoice), deps)
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
    expect(second).toEqual(first)
    expect({ ...invoice, last_synced_at: undefined }).toEqual(after)
  })

  it("places the order on detection once: the second run finds the order and completes nothing", async () => {
    const { deps, moves, invoice } = world()
    const detected = assessment("pending_authorization", "pending")
    const first = await applyCryptoInvoice(detected, stateOf(invoice), deps)
    const second = await applyCryptoInvoice(detected, stateOf(invoice), deps)
    expect(moves).toEqual(["complete payses_1"])
    expect(second).toEqual(first)
  })

  it("cancels an order placed on detection once: the second run finds it canceled", async () => {
    const { deps, moves, medusa, invoice } = world({ session_status: "pending_authorization", order_id: "order_1" })
    medusa.orderOfCart = "order_1"
    const expired = assessment("canceled", "expired")
    const first = await applyCryptoInvoice(expired, stateOf(invoice), deps)
    const second = await applyCryptoInvoice(expired, stateOf(invoice), deps)
    expect(moves).toEqual(["cancel order_1"])
    expect(second).toEqual(first)
  })

  it("never moves backward: the captured invoice stays captured when a stale pending is applied after it, twice", async () => {
    const { deps, moves, invoice } = world()
    await applyCryptoInvoice(assessment("captured", "completed"), stateOf(invoice), deps)
    const stale = assessment("pending", "pending")
    expect((await applyCryptoInvoice(stale, stateOf(invoice), deps)).outcome).toBe("ignored_backward")
    expect((await applyCryptoInvoice(stale, stateOf(invoice), deps)).outcome).toBe("ignored_backward")
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
    expect(invoice).toMatchObject({ session_status: "captured", gateway_status: "completed", order_id: "order_1" })
  })
})

describe("applyCryptoInvoice with protect order status (docs/books.md#protect-order-status)", () => {
  const placedOnDetection = () => {
    const context = world({ session_status: "pending_authorization", order_id: "order_1" })
    context.medusa.orderOfCart = "order_1"
    return context
  }
  const completed = (extra: Partial<CryptoInvoiceAssessment> = {}) =>
    assessment("captured", "completed", { kind: "paid", received_amount: "0.000175", psys_cid: "BTC", currency: "BTC", ...extra })

  it("leaves an order a person canceled as it is when its invoice completes late, and says why", async () => {
    const { deps, moves, medusa, invoice } = placedOnDetection()
    medusa.order = { ...medusa.order, status: "canceled" }
    const applied = await applyCryptoInvoice(completed(), stateOf(invoice), deps)
    expect(applied).toEqual({
      invoice_id: "cinv_1",
      outcome: "protected",
      session_status: "pending_authorization",
      order_id: "order_1",
      hand_change: { reason: "canceled", order_status: "canceled" },
    })
    expect(moves).toEqual([])
    // The reading is recorded, the state is not moved forward.
    expect(invoice).toMatchObject({ session_status: "pending_authorization", gateway_status: "completed", received_amount: "0.000175" })
    // Marked once (the reconciliation stops polling it once the gateway has settled it), never moved later.
    expect(invoice.protected_at).toBeInstanceOf(Date)
    const first = invoice.protected_at
    await applyCryptoInvoice(completed(), stateOf(invoice), deps)
    expect(invoice.protected_at).toBe(first)
  })

  it("leaves an order edited by hand (a confirmed order edit) uncaptured", async () => {
    const { deps, moves, medusa, invoice } = placedOnDetection()
    medusa.orderChanges = [{ id: "ordch_1", change_type: "edit", status: "confirmed" }]
    const applied = await applyCryptoInvoice(completed(), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "protected", hand_change: { reason: "edited", order_status: "pending" } })
    expect(moves).toEqual([])
  })

  it("does not cancel an order edited by hand when its invoice ends short", async () => {
    const { deps, moves, medusa, invoice } = placedOnDetection()
    medusa.orderChanges = [{ id: "ordch_1", change_type: "claim", status: "confirmed" }]
    const applied = await applyCryptoInvoice(assessment("canceled", "expired", { kind: "failed", pay_rest_hours: 0 }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "protected", session_status: "pending_authorization" })
    expect(moves).toEqual([])
  })

  it("is idempotent: a second sync of the same reading moves nothing either", async () => {
    const { deps, moves, medusa, invoice } = placedOnDetection()
    medusa.order = { ...medusa.order, status: "canceled" }
    await applyCryptoInvoice(completed(), stateOf(invoice), deps)
    expect((await applyCryptoInvoice(completed(), stateOf(invoice), deps)).outcome).toBe("protected")
    expect(moves).toEqual([])
  })

  it("with protection off, captures as before", async () => {
    const { deps, moves, medusa, invoice } = placedOnDetection()
    medusa.order = { ...medusa.order, status: "canceled" }
    const applied = await applyCryptoInvoice(completed({ protect_order_status: false }), stateOf(invoice), deps)
    expect(applied).toMatchObject({ outcome: "applied", session_status: "captured" })
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
  })

  it("captures an order nobody touched", async () => {
    const { deps, moves, invoice } = placedOnDetection()
    expect((await applyCryptoInvoice(completed(), stateOf(invoice), deps)).outcome).toBe("applied")
    expect(moves).toEqual(["capture payses_1 123456789.123456789012"])
  })
})
