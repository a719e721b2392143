import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { Decimal } from "decimal.js"
import { resolveCryptoModule } from "../../../modules/crypto"
import { exact, sumAmounts } from "../../../core/money"
import { listCryptoOrderPayments, quoteCryptoRefund } from "../../../core/money-out/refund"
import type { CryptoWithdrawalRecord, ReserveCryptoWithdrawalInput } from "./reserve-crypto-withdrawal"

export interface CreateCryptoRefundInput {
  idempotency_key: string
  order_id: string
  /** `refund`: a Medusa refund of the order (fiat `amount` at the confirmed `rate`);
   *  `overpayment` / `underpayment`: coins the callback route recorded on the invoice. */
  kind: "refund" | "overpayment" | "underpayment"
  payment_id?: string
  /** refund: fiat amount (default: all refundable); over/underpayment: coin amount (default: all due). */
  amount?: string
  rate?: string
  address: string
  fee_plan: "normal" | "priority"
  note?: string
  requested_by?: string | null
  /** The shopper gave the address through a refund claim (the policy's claim review applies, docs/money-out.md#money-out-policy). */
  claimed?: boolean
}

export const prepareCryptoRefundStepId = "prepare-crypto-refund"

const SETTLED_OR_OPEN = ["requested", "sending", "completed", "outcome_unknown", "error"]

/** Counts against what is still due: settled or open, or failed at the gateway with its guard kept. */
const takesFromDue = (withdrawal: Pick<CryptoWithdrawalRecord, "status" | "active_fingerprint">) => withdrawal.status !== "error" || withdrawal.active_fingerprint !== null

/**
 * A new refund of an order is refused (409) while an earlier money-out of that order failed at the
 * gateway undecided: the gateway holds an operation for it (docs/money-out.md#failed-at-the-gateway).
 */
async function refuseWhileFailedUndecided(container: Parameters<typeof resolveCryptoModule>[0], orderId: string): Promise<void> {
  const failed = (await resolveCryptoModule(container).listCryptoWithdrawals({ order_id: orderId, status: "error" }, { order: { requested_at: "DESC" } })).find(
    (withdrawal) => withdrawal.active_fingerprint !== null
  )
  if (failed !== undefined) {
    throw new MedusaError(
      MedusaError.Types.CONFLICT,
      `An earlier ${failed.purpose} of order ${orderId} (withdrawal ${failed.id}, ${failed.total_amount} ${failed.psys_cid}) failed at the gateway: operation ${failed.operation_id ?? "unknown"}, status ${failed.gateway_status ?? "error"}. Nothing more is refunded until you decide: check the operation at the gateway, then resolve ${failed.id} ("failed: allow sending again", with a note) (field: order_id)`
    )
  }
}

/** The parts of a recorded refund withdrawal that decide whether a request replays it. */
export type RecordedCryptoRefund = Pick<
  CryptoWithdrawalRecord,
  "id" | "provider_id" | "psys_cid" | "purpose" | "order_id" | "payment_id" | "invoice_id" | "total_amount" | "source_currency" | "source_amount" | "source_rate"
>

/**
 * The withdrawal input of a request whose idempotency key is recorded already (a double click, a
 * retry): the recorded coin amount, not a new check of what is still refundable — that check now
 * counts this very refund and would refuse its replay. The reservation step then answers the
 * recorded withdrawal (or refuses another address, by its fingerprint) and sends nothing.
 */
export function replayOfRecordedRefund(recorded: RecordedCryptoRefund, input: CreateCryptoRefundInput): ReserveCryptoWithdrawalInput {
  const recordedAmount = input.kind === "refund" ? recorded.source_amount : recorded.total_amount
  const sameAmount = input.amount === undefined || (recordedAmount !== null && new Decimal(input.amount).eq(recordedAmount))
  if (recorded.purpose !== input.kind || recorded.order_id !== input.order_id || !sameAmount) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `idempotency_key "${input.idempotency_key}" was already used for another withdrawal (${recorded.id}); a new refund needs a new key (field: idempotency_key)`
    )
  }
  return {
    idempotency_key: input.idempotency_key,
    fee_plan: input.fee_plan,
    requested_by: input.requested_by ?? null,
    note: input.note ?? null,
    order_id: input.order_id,
    provider_id: recorded.provider_id,
    psys_cid: recorded.psys_cid,
    recipients: [{ address: input.address, amount: recorded.total_amount }],
    purpose: recorded.purpose,
    payment_id: recorded.payment_id,
    invoice_id: recorded.invoice_id,
    source_currency: recorded.source_currency,
    source_amount: recorded.source_amount,
    source_rate: recorded.source_rate,
  }
}

/** Turns a refund request into the withdrawal that pays it (checked amounts, the coin, the rate). */
export const prepareCryptoRefundStep = createStep(prepareCryptoRefundStepId, async (input: CreateCryptoRefundInput, { container }) => {
  const [recorded] = await resolveCryptoModule(container).listCryptoWithdrawals({ idempotency_key: input.idempotency_key }, { take: 1 })
  if (recorded !== undefined) {
    return new StepResponse(replayOfRecordedRefund(recorded, input))
  }
  return new StepResponse(await prepareCryptoRefund(container, input))
})

/**
 * What a new refund sends: its coin, amount and recipient, checked against what the order still
 * has to give back. Also what a refund claim shows the shopper before any address is known
 * (docs/money-out.md#refunds-the-shopper-claims).
 */
export async function prepareCryptoRefund(container: MedusaContainer, input: CreateCryptoRefundInput): Promise<ReserveCryptoWithdrawalInput> {
  await refuseWhileFailedUndecided(container, input.order_id)
  const base = {
    amount_field: "amount",
    idempotency_key: input.idempotency_key,
    fee_plan: input.fee_plan,
    requested_by: input.requested_by ?? null,
    note: input.note ?? null,
    order_id: input.order_id,
    claimed: input.claimed === true,
  }
  if (input.kind === "refund") {
    const quote = await quoteCryptoRefund(container, { order_id: input.order_id, payment_id: input.payment_id, amount: input.amount, rate: input.rate })
    const prepared: ReserveCryptoWithdrawalInput = {
      ...base,
      provider_id: quote.provider_id,
      psys_cid: quote.psys_cid,
      recipients: [{ address: input.address, amount: quote.coin_amount }],
      purpose: "refund",
      payment_id: quote.payment_id,
      source_currency: quote.fiat,
      source_amount: quote.amount,
      source_rate: quote.rate,
    }
    return prepared
  }

  const service = resolveCryptoModule(container)
  const { payment_collection_ids } = await listCryptoOrderPayments(container, input.order_id)
  const invoices = payment_collection_ids.length ? await service.listCryptoInvoices({ payment_collection_id: payment_collection_ids }) : []
  const field = input.kind === "overpayment" ? "overpaid_amount" : "refund_due_amount"
  const invoice = invoices.find((candidate) => candidate[field] !== null && new Decimal(candidate[field] ?? "0").gt(0))
  if (invoice === undefined || invoice.psys_cid === null) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} has no ${input.kind === "overpayment" ? "overpaid" : "underpaid"} crypto invoice to refund (field: kind)`)
  }
  const earlier = await service.listCryptoWithdrawals({ invoice_id: invoice.id, purpose: input.kind, status: SETTLED_OR_OPEN })
  const sent = sumAmounts(earlier.filter(takesFromDue).map((w) => w.total_amount))
  const remaining = exact(invoice[field] ?? "0").minus(sent)
  const amount = exact(input.amount ?? remaining)
  if (amount.lte(0) || amount.gt(remaining)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `The ${input.kind} refund must be above 0 and at most the ${remaining.toFixed()} ${invoice.psys_cid} still due (field: amount)`
    )
  }
  const prepared: ReserveCryptoWithdrawalInput = {
    ...base,
    provider_id: invoice.provider_id,
    psys_cid: invoice.psys_cid,
    recipients: [{ address: input.address, amount: amount.toFixed() }],
    purpose: input.kind,
    invoice_id: invoice.id,
  }
  return prepared
}
