import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { checkCallbackAgainstInvoice, describeDiscrepancies, type CallbackDiscrepancy } from "../../core/payment/callback-check"
import { toMedusaError } from "../../core/errors"
import { toWire, type Wire } from "../../core/money"
import { assessmentFields, assessInvoiceChain, assessUnderInvoicePolicy, storedReadingOfFields, type AssessmentFields, type OperationReader } from "../../core/payment/invoice-chain"
import type { StatusPolicy } from "../../core/payment/payment-state"
import type { OrderOutcomeRules } from "../../core/config/order-rules"
import { assessInvoiceGroup, topUpCommission, type TopUpAssessment } from "../../core/payment/top-up"
import { resolveCoinId } from "../../core/payment/currency-cache"
import { booksUpdate, invoiceBooksOf, type InvoiceBooks } from "../../core/payment/invoice-books"
import { resolveCryptoProvider } from "../../core/config/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import type { FoundCryptoInvoiceGroup } from "./find-crypto-invoice-group"
import type { CryptoSettlementRequestedEvent } from "../../core/events"
import { settlementOfInvoice } from "../../core/money-out/settlement"

/**
 * The gateway's word on one invoice chain, mapped; plain strings so the workflow can store it.
 * Every field is null when the invoice was never created at the gateway (a reservation whose call
 * failed).
 */
export type CryptoInvoiceAssessment = { invoice_id: string } & { [K in keyof AssessmentFields]: AssessmentFields[K] | null } & {
  /**
   * The invoice's top-ups (docs/attention.md#paying-the-rest), oldest first, each with its own
   * amounts and the group's verdict; the invoice's own fields then carry the group's verdict too.
   */
  top_ups?: TopUpAssessment[]
  /** The `payRestHours` option in force (docs/attention.md#paying-the-rest). */
  pay_rest_hours?: number
  /** Protect order status in force (docs/books.md#protect-order-status); absent = on. */
  protect_order_status?: boolean
  /** The outcome rules in force (docs/books.md#order-rules); absent = today's behaviour. */
  order_outcomes?: OrderOutcomeRules
  /** What the reading credits the order, should the apply step capture it: the settlement rules' trigger (docs/money-out.md#settlement). */
  settlement?: CryptoSettlementRequestedEvent
}

type CryptoInvoiceRow = Awaited<ReturnType<CryptoModuleService["retrieveCryptoInvoice"]>>

/** The columns of an invoice row the apply step decides from. */
const INVOICE_STATE_FIELDS = [
  "id", "provider_id", "order_number", "cart_id", "session_id", "session_status", "order_id", "psys_cid", "currency",
  "expected_amount", "received_amount", "refund_due_amount", "superseded_by", "errored_at", "protected_at", "rest_until",
] as const
type InvoiceStateRow = Pick<CryptoInvoiceRow, (typeof INVOICE_STATE_FIELDS)[number]>

/**
 * An invoice row as the sync read it under the group's lock: the state the apply step moves from,
 * so it reads the row no second time (docs/architecture.md#the-callback-path). Plain values, times
 * as ISO strings (`Wire`), so it passes through the workflow engine's storage unchanged.
 */
export type CryptoInvoiceState = Wire<InvoiceStateRow>

/** The state of an invoice row (see {@link CryptoInvoiceState}); a column the row lacks is null. */
export function invoiceStateOf(row: InvoiceStateRow): CryptoInvoiceState {
  return toWire(Object.fromEntries(INVOICE_STATE_FIELDS.map((field) => [field, row[field] ?? null])) as InvoiceStateRow)
}

/** What the assess step hands the apply step: the gateway's word and the rows it was read for. */
export type AssessedCryptoInvoice =
  | {
      /** The invoice the delivery names or the sync was asked for (a top-up, or the group's root). */
      invoice_id: string
      assessment: CryptoInvoiceAssessment
      /** The invoice (the group's root) as read under the lock. */
      invoice: CryptoInvoiceState
      /** Its top-ups as read under the lock, oldest first (docs/attention.md#paying-the-rest). */
      top_up_rows: CryptoInvoiceState[]
      /** Where the delivery's coin or amounts disagree with that invoice (logged; the gateway's re-read decides). */
      discrepancies: CallbackDiscrepancy[]
    }
  /** The delivery names an order number that is none of ours. */
  | { invoice_id: null; invoice: null; discrepancies: [] }

export const assessCryptoInvoiceStepId = "assess-crypto-invoice"

/**
 * Reads the invoice row once, under the lock the sync workflow holds (by the order number a
 * delivery names, or by id; for a top-up, its root after it), checks the delivery's coin and
 * amounts against it (a discrepancy is logged as a warning, nothing is decided from the callback),
 * then re-reads the invoice and its switch chain from the gateway (spec §4.4) before any money
 * move. Hands the row on with the assessment: the apply step decides from this read.
 */
export const assessCryptoInvoiceStep = createStep(
  assessCryptoInvoiceStepId,
  async (input: Pick<FoundCryptoInvoiceGroup, "callback_id" | "invoice" | "callback_fields">, { container }) => {
    const cryptoModule = resolveCryptoModule(container)
    const [named] = input.invoice === null ? [] : await cryptoModule.listCryptoInvoices(input.invoice, { take: 1 })
    if (named === undefined) {
      return new StepResponse<AssessedCryptoInvoice>({ invoice_id: null, invoice: null, discrepancies: [] })
    }
    const fields = input.callback_fields
    const discrepancies = fields === null ? [] : checkCallbackAgainstInvoice(fields, named)
    if (discrepancies.length > 0) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(
          `crypto callback ${input.callback_id} (${String(fields?.status ?? "no status")}) does not match crypto invoice ${named.order_number}: ${describeDiscrepancies(discrepancies)}; the gateway's re-read of the invoice decides`
        )
    }
    // A top-up is synced with the invoice whose rest it asks for (docs/attention.md#paying-the-rest).
    const invoice = named.topup_of === null ? named : await cryptoModule.retrieveCryptoInvoice(named.topup_of)
    const handOver = { invoice_id: named.id, discrepancies }
    if (invoice.txn_id === null) {
      const notCreated: CryptoInvoiceAssessment = {
        invoice_id: invoice.id,
        kind: null,
        session_status: null,
        gateway_status: null,
        active_txn_id: null,
        received_amount: null,
        expected_amount: null,
        overpaid_amount: null,
        underpaid_amount: null,
        refund_due_amount: null,
        capture_received: null,
        psys_cid: null,
        currency: null,
        siblings_with_money: null,
      }
      return new StepResponse<AssessedCryptoInvoice>({ ...handOver, assessment: notCreated, invoice: invoiceStateOf(invoice), top_up_rows: [] })
    }
    // The merchant's admin settings (tolerance, order rules), as the provider reads them: the
    // provider takes the stored reading only under the same policy (usableStoredReading).
    const { client, options } = await resolveCryptoProvider(container, invoice.provider_id, "cached")
    try {
      const readAt = new Date()
      const root = { invoice_id: invoice.id, txn_id: invoice.txn_id, order_number: invoice.order_number, source_rate: invoice.source_rate }
      // Its top-ups (docs/attention.md#paying-the-rest) decide the session with it.
      const topUpRows = (await cryptoModule.listCryptoInvoices({ topup_of: invoice.id }, { order: { created_at: "ASC" } })).filter(
        (row): row is typeof row & { txn_id: string } => row.txn_id !== null
      )
      const single = async (policy: StatusPolicy, reader: OperationReader) => {
        const assessment = await assessInvoiceChain(reader, cryptoModule, root, policy)
        return { root: assessmentFields(assessment), topUps: [], books: [{ invoice_id: invoice.id, books: invoiceBooksOf(assessment.active, invoice.source_rate) }] }
      }
      const assessGroup = (policy: StatusPolicy, reader: OperationReader): Promise<{ root: AssessmentFields; topUps: TopUpAssessment[]; books: Array<{ invoice_id: string; books: InvoiceBooks }> }> =>
        topUpRows.length === 0
          ? single(policy, reader)
          : assessInvoiceGroup(
              reader,
              cryptoModule,
              root,
              topUpRows.map((row) => ({ invoice_id: row.id, txn_id: row.txn_id, order_number: row.order_number, commission: topUpCommission(row.topup_details), source_rate: row.source_rate })),
              policy
            )
      // A plain shop learns the coin the shopper picked on the hosted page only from the callback's
      // `currency` code (spec §6.1): its coin ID comes from the gateway's list (spec §4.8).
      const known = { psys_cid: invoice.psys_cid, currency: invoice.currency }
      const coinOf = async (fields: AssessmentFields) =>
        fields.psys_cid ?? (await resolveCoinId(client, cryptoModule, invoice.source_currency, fields.currency, known))
      // The order rules place this invoice's order by its coin and amount (docs/books.md#order-rules):
      // mapped under the policy of the coin the reading shows, the one the provider takes it under.
      const placed = await assessUnderInvoicePolicy(
        options,
        { psys_cid: invoice.psys_cid, source_amount: invoice.source_amount, source_currency: invoice.source_currency },
        client,
        assessGroup,
        (group) => coinOf(group.root)
      )
      const { reading: group, policy } = placed
      const fields = group.root
      const psysCid = placed.psys_cid
      // Kept on the row, under the invoice's lock (the sync workflow holds it): the provider's
      // authorize and capture, run by the apply step's Medusa workflows on whichever instance,
      // take this reading instead of asking the gateway again
      // (docs/architecture.md#one-gateway-read-per-callback). It names the resolved coin: the
      // provider builds the same policy from it.
      await cryptoModule.updateCryptoInvoices({
        id: invoice.id,
        gateway_reading: { ...storedReadingOfFields(invoice.txn_id, { ...fields, psys_cid: psysCid }, policy, readAt) },
        ...booksUpdate(group.books[0].books),
      })
      // The top-ups' books (docs/books.md#accounting-export); their amounts are the apply step's.
      for (const { invoice_id, books } of group.books.slice(1)) {
        const update = booksUpdate(books)
        if (Object.keys(update).length > 0) await cryptoModule.updateCryptoInvoices({ id: invoice_id, ...update })
      }
      const siblings = await Promise.all(
        fields.siblings_with_money.map(async (sibling) => ({
          ...sibling,
          psys_cid: sibling.psys_cid ?? (await resolveCoinId(client, cryptoModule, invoice.source_currency, sibling.currency, known)),
        }))
      )
      const assessment: CryptoInvoiceAssessment = {
        invoice_id: invoice.id,
        ...fields,
        psys_cid: psysCid ?? (fields.currency === null ? invoice.psys_cid : null),
        currency: fields.currency ?? (fields.psys_cid === null ? invoice.currency : null),
        siblings_with_money: siblings,
        ...(group.topUps.length > 0 ? { top_ups: group.topUps } : {}),
        ...settlementOfInvoice(invoice, { ...fields, psys_cid: psysCid }, group.books[0].books.commission),
        pay_rest_hours: options.payRestHours,
        protect_order_status: options.protectOrderStatus,
        order_outcomes: options.orderOutcomes,
      }
      return new StepResponse<AssessedCryptoInvoice>({ ...handOver, assessment, invoice: invoiceStateOf(invoice), top_up_rows: topUpRows.map(invoiceStateOf) })
    } catch (error) {
      throw toMedusaError(error, `Checking crypto invoice ${invoice.order_number}`)
    }
  }
)
