// The callback-processing steps that write without a compensation, each run twice on fakes: the
// second run moves nothing back (docs/workflows.md). A step is run as Medusa runs it, inside a
// throwaway workflow over a container holding only fakes.
import { asValue } from "@medusajs/framework/awilix"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, createMedusaContainer, Modules } from "@medusajs/framework/utils"
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../../modules/crypto"
import { openAttentionUpdate, type RaiseCryptoAttentionInput } from "../../../modules/crypto/service"
import { findCryptoInvoiceGroupStep } from "../find-crypto-invoice-group"
import { markCryptoCallbackProcessed } from "../mark-crypto-callback-processed"
import { raiseCryptoAttentions } from "../raise-crypto-attention"
import { CALLBACK_FAILURES_BEFORE_ATTENTION, recordCryptoCallbackFailureStep } from "../record-crypto-callback-failure"

type Row = Record<string, unknown>

/** Our module's rows, Medusa's event bus and Query, as fakes; every write and event kept. */
function world() {
  const callbacks: Row[] = [
    {
      id: "ccb_1",
      provider_id: "pp_crypto_crypto",
      ipn_type: "pay_in",
      txn_id: "OP-1",
      order_number: null,
      status: "completed",
      fields: { deposit_uid: "cus_stranger", psys_cid: "BTC", currency: "BTC", amount: "0.5", wallet_hash: "bc1q" },
      processed_at: null,
      outcome: null,
      last_error: "earlier failure",
      failure_count: 0,
    },
  ]
  const attentions: Row[] = []
  const events: string[] = []
  const invoiceReads: string[] = []
  const cryptoModule = {
    retrieveCryptoCallback: async (id: string) => ({ ...callbacks.find((row) => row.id === id) }),
    updateCryptoCallbacks: async (patch: Row) => Object.assign(callbacks.find((row) => row.id === patch.id) as Row, patch),
    countCryptoCallbackFailure: async (id: string, reason: string) => {
      const row = callbacks.find((candidate) => candidate.id === id)
      if (row === undefined) return null
      Object.assign(row, { failure_count: (row.failure_count as number) + 1, outcome: "failed", last_error: reason.slice(0, 1000) })
      return row.failure_count as number
    },
    // As the module does: one row per kind and subject; an open one takes the latest reading.
    raiseCryptoAttention: async (input: RaiseCryptoAttentionInput) => {
      const existing = attentions.find((row) => row.kind === input.kind && row.subject_id === input.subject_id)
      if (existing !== undefined) {
        const values = { psys_cid: null, currency: null, amount: null, order_id: null, cart_id: null, ...input }
        return { attention: Object.assign(existing, openAttentionUpdate(existing as Parameters<typeof openAttentionUpdate>[0], values)), created: false }
      }
      const created = { id: `catt_${attentions.length + 1}`, order_id: null, status: "open", psys_cid: null, currency: null, amount: null, ...input }
      attentions.push(created)
      return { attention: created, created: true }
    },
    // Counted: the sync reads a delivery's invoice once, under the lock (docs/architecture.md#the-callback-path).
    listCryptoInvoices: async () => {
      invoiceReads.push("list")
      return []
    },
    retrieveCryptoInvoice: async () => {
      invoiceReads.push("retrieve")
      return {}
    },
    listCryptoAttentions: async (filter: Row) =>
      attentions.filter((row) => row.kind === filter.kind && row.subject_id === filter.subject_id && row.status === filter.status),
  }
  const container = createMedusaContainer()
  container.register(CRYPTO_MODULE, asValue(cryptoModule))
  // The workflow runner groups and releases a workflow's events through the same module.
  container.register(
    Modules.EVENT_BUS,
    asValue({
      emit: async (batch: Array<{ name: string }>) => void events.push(...batch.map((event) => event.name)),
      releaseGroupedEvents: async () => undefined,
      clearGroupedEvents: async () => undefined,
    })
  )
  // No customer has the pay_in's uid.
  container.register(ContainerRegistrationKeys.QUERY, asValue({ graph: async () => ({ data: [] }) }))
  container.register(ContainerRegistrationKeys.LOGGER, asValue({ warn: () => undefined, error: () => undefined, info: () => undefined }))
  return { callbacks, attentions, events, invoiceReads, container: container as MedusaContainer }
}

const findGroup = createWorkflow("test-find-crypto-invoice-group-twice", (input: { callback_id: string }) => new WorkflowResponse(findCryptoInvoiceGroupStep(input)))
const recordFailure = createWorkflow("test-record-crypto-callback-failure-twice", (input: { callback_id: string; error: string }) => new WorkflowResponse(recordCryptoCallbackFailureStep(input)))

describe("markCryptoCallbackProcessed (the delivery's last write, by the apply and find-group steps), run twice", () => {
  it("leaves the delivery processed with the same outcome; the second run only stamps the time again, never clears it", async () => {
    const { container, callbacks } = world()
    const cryptoModule = container.resolve<Parameters<typeof markCryptoCallbackProcessed>[0]>(CRYPTO_MODULE)
    await markCryptoCallbackProcessed(cryptoModule, "ccb_1", "applied")
    const first = { ...callbacks[0] }
    await markCryptoCallbackProcessed(cryptoModule, "ccb_1", "applied")
    expect(callbacks[0]).toMatchObject({ outcome: "applied", last_error: null, failure_count: 0 })
    expect(callbacks[0].processed_at).toBeInstanceOf(Date)
    expect((callbacks[0].processed_at as Date).getTime()).toBeGreaterThanOrEqual((first.processed_at as Date).getTime())
  })
})

describe("raiseCryptoAttentions (the attention write of the apply, find-group and failure steps), run twice", () => {
  it("keeps one item per kind and subject and emits its events once", async () => {
    const { container, attentions, events } = world()
    const item: RaiseCryptoAttentionInput = { kind: "overpaid", provider_id: "pp_crypto_crypto", subject_id: "cinv_1", psys_cid: "BTC", currency: "BTC", amount: "0.1", evidence: {} }
    await raiseCryptoAttentions(container, [item])
    await raiseCryptoAttentions(container, [item])
    expect(attentions).toHaveLength(1)
    expect(events).toEqual(["crypto.attention.raised", "crypto.payment.overpaid"])
  })

  it("keeps the coin an earlier raise resolved when a later reading names only a code two coins share", async () => {
    const { container, attentions } = world()
    const item: RaiseCryptoAttentionInput = { kind: "duplicate_invoice_payment", provider_id: "pp_crypto_crypto", subject_id: "cinv_1:INV-1", psys_cid: "BTC", currency: "BTC", amount: "0.1", evidence: {} }
    await raiseCryptoAttentions(container, [item])
    // After a switch to LTC the invoice's own coin no longer tells BTC from BTC_TEST.
    await raiseCryptoAttentions(container, [{ ...item, psys_cid: null }])
    expect(attentions).toEqual([expect.objectContaining({ psys_cid: "BTC", currency: "BTC", amount: "0.1" })])
  })
})

describe("find-crypto-invoice-group on a pay_in to no customer, run twice", () => {
  it("raises unmatched_pay_in once, with one event, and answers the same both times", async () => {
    const { container, attentions, events, callbacks } = world()
    const first = await findGroup(container).run({ input: { callback_id: "ccb_1" } })
    const second = await findGroup(container).run({ input: { callback_id: "ccb_1" } })
    expect(second.result).toEqual(first.result)
    expect(first.result).toMatchObject({ outcome: "recorded", invoice: null, lock: null })
    expect(attentions).toEqual([expect.objectContaining({ kind: "unmatched_pay_in", subject_id: "pay_in:OP-1", amount: "0.5" })])
    expect(events.filter((name) => name === "crypto.attention.raised")).toHaveLength(1)
    // Nothing to sync: the delivery is finished here, processed as recorded.
    expect(callbacks[0]).toMatchObject({ outcome: "recorded", last_error: null })
  })
})

describe("find-crypto-invoice-group on an invoice delivery", () => {
  it("locks the cart its order number names without reading the invoice (read once, under the lock)", async () => {
    const { container, callbacks, invoiceReads } = world()
    callbacks.push({ ...callbacks[0], id: "ccb_2", ipn_type: "invoice", txn_id: "INV-9", order_number: "cart_01ABC-2-rest", fields: { order_number: "cart_01ABC-2-rest" } })
    const { result } = await findGroup(container).run({ input: { callback_id: "ccb_2" } })
    expect(result).toMatchObject({ outcome: "matched", invoice: { order_number: "cart_01ABC-2-rest" }, lock: { key: "crypto-invoice:cart_01ABC" } })
    expect(invoiceReads).toEqual([])
  })
})

describe("record-crypto-callback-failure: a counter, not idempotent, forward-only", () => {
  it("counts every run as one more failure (the count only grows) and raises callback_failed once, from the threshold on", async () => {
    const { container, callbacks, attentions, events } = world()
    const counts: number[] = []
    for (let run = 0; run < CALLBACK_FAILURES_BEFORE_ATTENTION + 1; run += 1) {
      const { result } = await recordFailure(container).run({ input: { callback_id: "ccb_1", error: `gateway down (${run})` } })
      counts.push(result.failures)
    }
    expect(counts).toEqual([1, 2, 3, 4])
    expect(callbacks[0]).toMatchObject({ failure_count: 4, outcome: "failed", last_error: "gateway down (3)", processed_at: null })
    expect(attentions).toEqual([expect.objectContaining({ kind: "callback_failed", subject_id: "ccb_1" })])
    expect(events.filter((name) => name === "crypto.attention.raised")).toHaveLength(1)
  })
})
