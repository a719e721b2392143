// applyCryptoInvoice (the work of apply-crypto-invoice, which has no compensation) run twice with
// the same assessment, on fakes whose Medusa state follows each move: the second run moves nothing
// (docs/workflows.md).
import type { CryptoSessionStatus } from "../../core/payment-state"
import type { CryptoInvoiceAssessment } from "../steps/assess-crypto-invoice"
import { applyCryptoInvoice, type ApplyDeps } from "../steps/apply-crypto-invoice"

type Row = Record<string, unknown>

function world(invoiceOverrides: Row = {}) {
  const invoice: Row = {
    id: "cinv_1",
    order_number: "cart_1",
    cart_id: "cart_1",
    session_id: "payses_1",
    session_status: "pending",
    order_id: null,
    expected_amount: "0.000175",
    refund_due_amount: null,
    received_amount: null,
    psys_cid: "BTC",
    currency: "BTC",
    errored_at: null,
    superseded_by: null,
    ...invoiceOverrides,
  }
  const medusa = {
    payments: [] as Row[],
    orderOfCart: null as string | null,
    order: { id: "order_1", status: "pending", payment_collections: [{ payments: [{ captured_at: null }] }] } as Row,
  }
  const moves: string[] = []
  const deps: ApplyDeps = {
    cryptoModule: {
      retrieveCryptoInvoice: (async () => ({ ...invoice })) as unknown as ApplyDeps["cryptoModule"]["retrieveCryptoInvoice"],
      updateCryptoInvoices: (async (data: Row) => Object.assign(invoice, data)) as unknown as ApplyDeps["cryptoModule"]["updateCryptoInvoices"],
    },
    query: {
      graph: async ({ entity }) => {
        if (entity === "payment_session") return { data: [{ id: "payses_1", raw_amount: { value: "100", precision: 20 } }] }
        if (entity === "payment") return { data: medusa.payments }
        if (entity === "order_cart") return { data: medusa.orderOfCart === null ? [] : [{ order_id: medusa.orderOfCart }] }
        if (entity === "order") return { data: [medusa.order] }
        return { data: [] }
      },
    },
    logger: { warn: () => undefined },
    // Medusa's workflows as they leave Medusa: a captured payment and the order placed, ...
    capturePayment: async (sessionId) => {
      moves.push(`capture ${sessionId}`)
      medusa.payments = [{ id: "pay_1", captured_at: new Date() }]
      medusa.orderOfCart = "order_1"
    },
    // ... the order placed with the payment awaiting, ...
    completeCart: async (cartId) => {
      moves.push(`complete ${cartId}`)
      medusa.payments = [{ id: "pay_1", captured_at: null }]
      medusa.orderOfCart = "order_1"
    },
    // ... the order canceled.
    cancelOrder: async (orderId) => {
      moves.push(`cancel ${orderId}`)
      medusa.order = { ...medusa.order, status: "canceled" }
    },
  }
  return { invoice, medusa, moves, deps }
}

const assessment = (sessionStatus: CryptoSessionStatus, gatewayStatus: string, extra: Partial<CryptoInvoiceAssessment> = {}): CryptoInvoiceAssessment => ({
  invoice_id: "cinv_1",
  kind: null,
  session_status: sessionStatus,
  gateway_status: gatewayStatus,
  active_txn_id: "INV-1",
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

describe("applyCryptoInvoice run twice with the same assessment", () => {
  it("captures once: the second run finds the payment captured and the order placed, and moves nothing", async () => {
    const { deps, moves, invoice } = world()
    const paid = assessment("captured", "completed", { received_amount: "0.000175" })
    const first = await applyCryptoInvoice(paid, deps)
    const after = { ...invoice, last_synced_at: undefined }
    const second = await applyCryptoInvoice(paid, deps)
    expect(moves).toEqual(["capture payses_1"])
    expect(second).toEqual(first)
    expect({ ...invoice, last_synced_at: undefined }).toEqual(after)
  })

  it("places the order on detection once: the second run finds the order and completes nothing", async () => {
    const { deps, moves } = world()
    const detected = assessment("pending_authorization", "pending")
    const first = await applyCryptoInvoice(detected, deps)
    const second = await applyCryptoInvoice(detected, deps)
    expect(moves).toEqual(["complete cart_1"])
    expect(second).toEqual(first)
  })

  it("cancels an order placed on detection once: the second run finds it canceled", async () => {
    const { deps, moves, medusa } = world({ session_status: "pending_authorization", order_id: "order_1" })
    medusa.orderOfCart = "order_1"
    const expired = assessment("canceled", "expired")
    const first = await applyCryptoInvoice(expired, deps)
    const second = await applyCryptoInvoice(expired, deps)
    expect(moves).toEqual(["cancel order_1"])
    expect(second).toEqual(first)
  })

  it("never moves backward: the captured invoice stays captured when a stale pending is applied after it, twice", async () => {
    const { deps, moves, invoice } = world()
    await applyCryptoInvoice(assessment("captured", "completed"), deps)
    const stale = assessment("pending", "pending")
    expect((await applyCryptoInvoice(stale, deps)).outcome).toBe("ignored_backward")
    expect((await applyCryptoInvoice(stale, deps)).outcome).toBe("ignored_backward")
    expect(moves).toEqual(["capture payses_1"])
    expect(invoice).toMatchObject({ session_status: "captured", gateway_status: "completed", order_id: "order_1" })
  })
})
