// The admin steps that write without a compensation, each run a second time on fakes: a replay
// sends nothing and a recorded decision stands (docs/workflows.md). A step is run as Medusa runs
// it, inside a throwaway workflow over a container holding only fakes.
import { asValue } from "@medusajs/framework/awilix"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createMedusaContainer, Modules } from "@medusajs/framework/utils"
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { Operation } from "../../../gateway"
import { CRYPTO_MODULE, type CryptoModuleService } from "../../../modules/crypto"
import { CRYPTO_REFUNDS_KEY } from "../../../core/money-out/refund-authorization"
import { settleWithOperation } from "../steps/reconcile-crypto-withdrawal"
import { linkCryptoAttentionRefundStep } from "../steps/link-crypto-attention-refund"
import { recordCryptoRefundStep } from "../steps/record-crypto-refund"
import type { CryptoWithdrawalRecord } from "../steps/reserve-crypto-withdrawal"
import { resolveCryptoAttentionStep, type ResolveCryptoAttentionInput } from "../steps/resolve-crypto-attention"
import { resolveCryptoExchangeStep, type ResolveCryptoExchangeInput } from "../steps/resolve-crypto-exchange"
import { resolveCryptoWithdrawalStep, type ResolveCryptoWithdrawalInput } from "../steps/resolve-crypto-withdrawal"
import { sendCryptoExchangeStep } from "../steps/send-crypto-exchange"
import { sendCryptoWithdrawalStep, type SentCryptoWithdrawal } from "../steps/send-crypto-withdrawal"
import type { CryptoExchangeReservation } from "../steps/reserve-crypto-exchange"
import type { CryptoWithdrawalReservation } from "../steps/reserve-crypto-withdrawal"

type Row = Record<string, unknown>

/** Our module's tables and the payment module as fakes; every call that could move money counted. */
function world() {
  const tables: Record<string, Row[]> = {
    attentions: [{ id: "catt_1", status: "open", resolution: null, resolved_at: null, withdrawal_id: null }],
    withdrawals: [
      { id: "cwd_unknown", status: "outcome_unknown", operation_id: null, active_fingerprint: "fp-1", resolution: null, provider_id: "pp_crypto_crypto" },
      { id: "cwd_failed", status: "error", operation_id: "OP-9", active_fingerprint: "fp-2", resolution: null, provider_id: "pp_crypto_crypto" },
    ],
    exchanges: [{ id: "cexc_1", status: "outcome_unknown", exchange_id: null, provider_id: "pp_crypto_crypto" }],
  }
  const calls: string[] = []
  const list = (table: string) => async (filter: Row) => tables[table].filter((row) => Object.entries(filter).every(([key, value]) => row[key] === value)).map((row) => ({ ...row }))
  const update = (table: string) => async (patch: Row) => {
    calls.push(`update ${table} ${String(patch.id)}`)
    return { ...Object.assign(tables[table].find((row) => row.id === patch.id) as Row, patch) }
  }
  const cryptoModule = {
    listCryptoAttentions: list("attentions"),
    listCryptoWithdrawals: list("withdrawals"),
    listCryptoExchanges: list("exchanges"),
    updateCryptoAttentions: update("attentions"),
    updateCryptoWithdrawals: update("withdrawals"),
    updateCryptoExchanges: update("exchanges"),
  }
  const payment: Row = { id: "pay_1", data: {} }
  const paymentModule = {
    retrievePayment: async () => ({ ...payment }),
    updatePayment: async (patch: Row) => {
      calls.push("update payment")
      return Object.assign(payment, patch)
    },
  }
  const container = createMedusaContainer()
  container.register(CRYPTO_MODULE, asValue(cryptoModule))
  container.register(Modules.PAYMENT, asValue(paymentModule))
  // Anything that reaches the gateway fails the test: a replay must not get that far.
  container.register("configModule", asValue({ get modules(): never { throw new Error("a replay resolved the gateway") } }))
  return { tables, calls, payment, container: container as MedusaContainer }
}

const resolveAttention = createWorkflow("test-resolve-crypto-attention-twice", (input: ResolveCryptoAttentionInput) => new WorkflowResponse(resolveCryptoAttentionStep(input)))
const resolveWithdrawal = createWorkflow("test-resolve-crypto-withdrawal-twice", (input: ResolveCryptoWithdrawalInput) => new WorkflowResponse(resolveCryptoWithdrawalStep(input)))
const resolveExchange = createWorkflow("test-resolve-crypto-exchange-twice", (input: ResolveCryptoExchangeInput) => new WorkflowResponse(resolveCryptoExchangeStep(input)))
const sendWithdrawal = createWorkflow("test-send-crypto-withdrawal-replay", (input: CryptoWithdrawalReservation) => new WorkflowResponse(sendCryptoWithdrawalStep(input)))
const sendExchange = createWorkflow("test-send-crypto-exchange-replay", (input: CryptoExchangeReservation) => new WorkflowResponse(sendCryptoExchangeStep(input)))
const recordRefund = createWorkflow("test-record-crypto-refund-replay", (input: SentCryptoWithdrawal) => new WorkflowResponse(recordCryptoRefundStep(input)))
const linkRefund = createWorkflow("test-link-crypto-attention-refund-replay", (input: { attention_id: string; sent: SentCryptoWithdrawal }) => new WorkflowResponse(linkCryptoAttentionRefundStep(input)))

type Runner<I> = (container: MedusaContainer) => {
  run(args: { input: I; throwOnError?: boolean }): Promise<{ errors: Array<{ error?: { message?: unknown } }> }>
}

/** Runs the workflow with `first`, then with `second`; the second run's error messages. */
async function twice<I>(workflow: Runner<I>, container: MedusaContainer, first: I, second: I): Promise<string[]> {
  await workflow(container).run({ input: first })
  const { errors } = await workflow(container).run({ input: second, throwOnError: false })
  return errors.map((failure) => String(failure.error?.message))
}

describe("a recorded decision stands: the second resolve is refused and changes nothing", () => {
  it("resolve-crypto-attention", async () => {
    const { container, tables } = world()
    const input = (note: string): ResolveCryptoAttentionInput => ({ id: "catt_1", resolution: note === "first" ? "kept" : "other", note, resolved_by: "user_1" })
    const errors = await twice(resolveAttention, container, input("first"), input("second"))
    expect(errors).toEqual([expect.stringContaining("already resolved (kept)")])
    expect(tables.attentions[0]).toMatchObject({ status: "resolved", resolution: "kept", resolution_note: "first" })
  })

  it("resolve-crypto-withdrawal as not sent", async () => {
    const { container, tables } = world()
    const input: ResolveCryptoWithdrawalInput = { id: "cwd_unknown", resolution: "not_sent", note: "checked", resolved_by: "user_1" }
    const errors = await twice(resolveWithdrawal, container, input, { ...input, note: "again" })
    expect(errors).toEqual([expect.stringContaining("only an unknown outcome is resolved by hand")])
    expect(tables.withdrawals[0]).toMatchObject({ status: "not_sent", resolution_note: "checked", active_fingerprint: null })
  })

  it("resolve-crypto-withdrawal as failed at the gateway", async () => {
    const { container, tables } = world()
    const input: ResolveCryptoWithdrawalInput = { id: "cwd_failed", resolution: "failed", note: "checked", resolved_by: "user_1" }
    const errors = await twice(resolveWithdrawal, container, input, { ...input, note: "again" })
    expect(errors).toEqual([expect.stringContaining('"failed" is the decision on a withdrawal that failed at the gateway')])
    expect(tables.withdrawals[1]).toMatchObject({ status: "error", resolution: "failed", resolution_note: "checked", active_fingerprint: null })
  })

  it("resolve-crypto-exchange as not sent", async () => {
    const { container, tables } = world()
    const input: ResolveCryptoExchangeInput = { id: "cexc_1", resolution: "not_sent", note: "checked", resolved_by: "user_1" }
    const errors = await twice(resolveExchange, container, input, { ...input, note: "again" })
    expect(errors).toEqual([expect.stringContaining("only an unknown outcome is resolved by hand")])
    expect(tables.exchanges[0]).toMatchObject({ status: "not_sent", resolution_note: "checked" })
  })
})

describe("a replayed reservation sends nothing", () => {
  it("send-crypto-withdrawal answers the recorded withdrawal without reaching the gateway or writing", async () => {
    const { container, calls, tables } = world()
    const reservation = { withdrawal: tables.withdrawals[0] as unknown as CryptoWithdrawalRecord, reserved: false } satisfies CryptoWithdrawalReservation
    const { result } = await sendWithdrawal(container).run({ input: reservation })
    expect(result).toEqual({ withdrawal: reservation.withdrawal, replayed: true })
    expect(calls).toEqual([])
  })

  it("send-crypto-exchange answers the recorded exchange without reaching the gateway or writing", async () => {
    const { container, calls, tables } = world()
    const reservation = { exchange: tables.exchanges[0], reserved: false } as unknown as CryptoExchangeReservation
    const { result } = await sendExchange(container).run({ input: reservation })
    expect(result).toEqual({ exchange: reservation.exchange, replayed: true })
    expect(calls).toEqual([])
  })
})

describe("record-crypto-refund never records a Medusa refund twice", () => {
  const completed = (extra: Row = {}) =>
    ({
      withdrawal: { id: "cwd_refund", purpose: "refund", status: "completed", refund_id: null, payment_id: "pay_1", source_amount: "10", recipients: [], ...extra },
      replayed: true,
    }) as unknown as SentCryptoWithdrawal

  it("does nothing for a refund whose Medusa refund is recorded on the withdrawal", async () => {
    const { container, calls } = world()
    const { result } = await recordRefund(container).run({ input: completed({ refund_id: "ref_1" }) })
    expect(result.withdrawal.refund_id).toBe("ref_1")
    expect(calls).toEqual([])
  })

  it("only copies the refund id when the payment already holds the refund (an earlier run whose row update failed)", async () => {
    const { container, calls, tables, payment } = world()
    tables.withdrawals.push({ id: "cwd_refund", refund_id: null })
    payment.data = { [CRYPTO_REFUNDS_KEY]: [{ withdrawal_id: "cwd_refund", refund_id: "ref_1" }] }
    const { result } = await recordRefund(container).run({ input: completed() })
    expect(result.withdrawal.refund_id).toBe("ref_1")
    expect(calls).toEqual(["update withdrawals cwd_refund"])
  })
})

describe("settleWithOperation (the write of reconcile-crypto-withdrawal and resolve as operation), run twice", () => {
  it("gives the same row the second time with the same operation: the completion time is kept", async () => {
    const row: Row = { id: "cwd_1", status: "outcome_unknown", operation_id: null, fee: null, resolved_at: null, active_fingerprint: "fp-1", error_message: "unknown", gateway_evidence: null }
    const service = {
      updateCryptoWithdrawals: async (patch: Row) => ({ ...Object.assign(row, patch) }),
    } as unknown as CryptoModuleService
    const operation = { id: "OP-1", status: "completed", tx_url: ["https://explorer/tx/1"], fee: null } as unknown as Operation
    const first = await settleWithOperation(service, { ...row } as unknown as CryptoWithdrawalRecord, operation)
    const second = await settleWithOperation(service, { ...row } as unknown as CryptoWithdrawalRecord, operation)
    expect(second).toEqual(first)
    expect(second).toMatchObject({ status: "completed", operation_id: "OP-1", active_fingerprint: null, error_message: null })
  })
})

describe("link-crypto-attention-refund, run again by a replayed refund request", () => {
  it("leaves the item resolved as refunded by the same withdrawal; only the resolution time is stamped again", async () => {
    const { container, tables } = world()
    const sent = { withdrawal: { id: "cwd_1", status: "completed", total_amount: "0.1", psys_cid: "BTC", requested_by: "user_1" }, replayed: false } as unknown as SentCryptoWithdrawal
    await linkRefund(container).run({ input: { attention_id: "catt_1", sent } })
    const { resolved_at: firstAt, ...first } = { ...tables.attentions[0] }
    await linkRefund(container).run({ input: { attention_id: "catt_1", sent: { ...sent, replayed: true } } })
    const { resolved_at: secondAt, ...second } = { ...tables.attentions[0] }
    expect(second).toEqual(first)
    expect(first).toMatchObject({ status: "resolved", resolution: "refunded", withdrawal_id: "cwd_1", resolved_by: "user_1" })
    expect((secondAt as Date).getTime()).toBeGreaterThanOrEqual((firstAt as Date).getTime())
  })
})
