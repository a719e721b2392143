import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { remainingToSendBack } from "../../../core/money-out/account"
import { exact } from "../../../core/money"
import { resolveCryptoModule } from "../../../modules/crypto"
import type { ReserveCryptoWithdrawalInput } from "./reserve-crypto-withdrawal"

export interface CreateCryptoAttentionRefundInput {
  id: string
  address: string
  fee_plan: "normal" | "priority"
  idempotency_key?: string
  requested_by: string | null
}

/** The withdrawal purpose of a refunded attention kind (src/modules/crypto/models/crypto-withdrawal.ts); any other is `unexplained`. */
const PURPOSE_OF_KIND = new Map<string, NonNullable<ReserveCryptoWithdrawalInput["purpose"]>>([
  ["overpaid", "overpayment"],
  ["underpaid", "underpayment"],
  ["late_payment", "late_payment"],
])

export const prepareCryptoAttentionRefundStepId = "prepare-crypto-attention-refund"

/**
 * The crypto refund of an attention item: its amount, in its coin, to the address the merchant
 * entered, as a withdrawal through the same reservation (idempotency key, duplicate guard) and
 * sending steps as every refund. For an over- or underpayment the amount is capped at what the
 * invoice's account still owes, so a refund made from the order widget is never sent again.
 */
export const prepareCryptoAttentionRefundStep = createStep(prepareCryptoAttentionRefundStepId, async (input: CreateCryptoAttentionRefundInput, { container }) => {
  const service = resolveCryptoModule(container)
  const [item] = await service.listCryptoAttentions({ id: input.id }, { take: 1 })
  if (item === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Attention item ${input.id} was not found`)
  }
  const key = input.idempotency_key ?? `attention-refund:${item.id}:${input.address}`
  const [recorded] = await service.listCryptoWithdrawals({ idempotency_key: key }, { take: 1 })
  if (item.status === "resolved" && recorded === undefined) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Attention item ${item.id} was already resolved (${item.resolution ?? "?"}): nothing to refund`)
  }
  const evidence = (item.evidence ?? {}) as Record<string, unknown>
  if (item.kind === "underpaid" && evidence.within_tolerance === true) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Attention item ${item.id} is a shortfall the order accepted within the tolerance: no money is held for it. Mark it resolved with a note`
    )
  }
  if (item.psys_cid === null || item.amount === null) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The coin or amount of attention item ${item.id} is unknown: refund it from the gateway's dashboard and mark it resolved`)
  }
  if (recorded === undefined && item.withdrawal_id !== null) {
    const [earlier] = await service.listCryptoWithdrawals({ id: item.withdrawal_id }, { take: 1 })
    // Another refund only once the earlier one provably sent nothing: refused by the gateway, or a
    // recorded decision released its guard (not sent; failed at the gateway, docs/money-out.md).
    const released = earlier !== undefined && (earlier.status === "rejected" || earlier.status === "not_sent" || (earlier.status === "error" && earlier.active_fingerprint === null))
    if (earlier !== undefined && !released) {
      const failed = earlier.status === "error" ? `, failed at the gateway: operation ${earlier.operation_id ?? "unknown"}, status ${earlier.gateway_status ?? "error"}; resolve it ("failed: allow sending again", with a note) before refunding again` : ""
      // 400, not 409: the attention route leaves a CONFLICT to Medusa's handler, which drops this message.
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Attention item ${item.id} already has a crypto refund (${earlier.id}, ${earlier.status.replace("_", " ")}${failed})`)
    }
  }
  const purpose = PURPOSE_OF_KIND.get(item.kind) ?? "unexplained"
  const invoiceId = typeof evidence.invoice_id === "string" ? evidence.invoice_id : item.subject_id.startsWith("cinv_") ? item.subject_id : null
  let amount = exact(item.amount)
  if (recorded === undefined && invoiceId !== null && (purpose === "overpayment" || purpose === "underpayment")) {
    const withdrawals = await service.listCryptoWithdrawals({ invoice_id: invoiceId, purpose })
    amount = exact(remainingToSendBack(item.amount, invoiceId, withdrawals, [purpose]))
  }
  if (recorded === undefined && amount.lte(0)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Nothing of attention item ${item.id} is left to refund: it was sent already (field: amount)`)
  }
  const prepared: ReserveCryptoWithdrawalInput = {
    idempotency_key: key,
    provider_id: item.provider_id,
    psys_cid: recorded?.psys_cid ?? item.psys_cid,
    fee_plan: input.fee_plan,
    recipients: [{ address: input.address, amount: recorded?.total_amount ?? amount.toFixed() }],
    requested_by: input.requested_by,
    purpose,
    order_id: item.order_id,
    invoice_id: invoiceId,
    note: `Refund of attention item ${item.id} (${item.kind})`,
    // The item's amount, checked against its coin's places like every amount (docs/money-out.md#amounts).
    amount_field: "amount",
  }
  return new StepResponse({ attention_id: item.id, withdrawal: prepared })
})
