import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoProviderEntry } from "../../../core/config/provider-entry"
import { admitMoneyOut, approvalProblem, policyNow } from "../../../core/money-out/policy"
import { recipientsOf } from "../../../core/money-out/withdrawal"
import { resolveCryptoModule } from "../../../modules/crypto"
import type CryptoModuleService from "../../../modules/crypto/service"
import type { CryptoWithdrawalRecord } from "../../../modules/crypto/service"
import type { CryptoWithdrawalReservation } from "./reserve-crypto-withdrawal"

export interface DecideCryptoWithdrawalInput {
  id: string
  /** The admin user who decides. */
  actor: string | null
  note?: string | null
}

async function withdrawalOf(service: CryptoModuleService, id: string): Promise<CryptoWithdrawalRecord> {
  const [withdrawal] = await service.listCryptoWithdrawals({ id }, { take: 1 })
  if (withdrawal === undefined) throw new MedusaError(MedusaError.Types.NOT_FOUND, `No withdrawal ${id}`)
  return withdrawal
}

export const approveCryptoWithdrawalStepId = "approve-crypto-withdrawal"

/**
 * Another admin approves a withdrawal waiting for approval, or reviews a claimed refund waiting for
 * review (docs/money-out.md#money-out-policy): the admin who asked cannot; a merchant's withdrawal's
 * addresses must still pass the address book (one removed since is refused, audited). Then one atomic move from `awaiting_approval` to `requested`: of two approvals
 * at once (a double click, two instances) only the one that moved it hands it to the send step as
 * reserved; the other gets the withdrawal back as recorded and sends nothing. Forward-only: an
 * approved withdrawal is never moved back.
 */
export const approveCryptoWithdrawalStep = createStep(approveCryptoWithdrawalStepId, async (input: DecideCryptoWithdrawalInput, { container }) => {
  const service = resolveCryptoModule(container)
  const withdrawal = await withdrawalOf(service, input.id)
  if (withdrawal.status !== "awaiting_approval" && withdrawal.approved_by !== null && withdrawal.approved_by === input.actor) {
    // This admin's approval again (a double click): answered as recorded, nothing sent again.
    return new StepResponse<CryptoWithdrawalReservation>({ withdrawal, reserved: false })
  }
  const problem = approvalProblem(withdrawal, input.actor)
  if (problem !== null) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, problem)
  const entry = resolveCryptoProviderEntry(container, withdrawal.provider_id)
  const recipients = recipientsOf(withdrawal.recipients)
  // A merchant's withdrawal meets the address book again; a claimed refund goes to the shopper's address.
  if (withdrawal.purpose === "withdrawal") await admitMoneyOut(
    service,
    entry.options.moneyOut,
    {
      kind: "withdrawal",
      provider_id: withdrawal.provider_id,
      psys_cid: withdrawal.psys_cid,
      payees: recipients.map((recipient, index) => ({ field: `recipients[${index}].address`, address: recipient.address })),
      actor: input.actor,
      details: { withdrawal_id: withdrawal.id, psys_cid: withdrawal.psys_cid, total_amount: withdrawal.total_amount, approval: true },
    },
    policyNow()
  )
  const now = policyNow()
  const moved = await service.moveCryptoWithdrawal(withdrawal.id, "awaiting_approval", { status: "requested", approved_by: input.actor, approved_at: now })
  const current = await withdrawalOf(service, withdrawal.id)
  if (!moved) {
    // Another request moved it first: if it approved, that one sends; otherwise say what happened.
    if (current.status === "rejected") throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Withdrawal ${current.id} was rejected meanwhile`)
    return new StepResponse<CryptoWithdrawalReservation>({ withdrawal: current, reserved: false })
  }
  await service.createCryptoMoneyOutAudits({
    provider_id: current.provider_id,
    action: "withdrawal_approved",
    actor: input.actor,
    subject_id: current.id,
    details: { psys_cid: current.psys_cid, total_amount: current.total_amount, value_amount: current.value_amount, value_currency: current.value_currency, requested_by: current.requested_by, note: input.note ?? null },
  })
  return new StepResponse<CryptoWithdrawalReservation>({ withdrawal: current, reserved: true })
})

export const rejectCryptoWithdrawalStepId = "reject-crypto-withdrawal"

/**
 * An admin rejects a withdrawal waiting for approval, with a note (docs/money-out.md#money-out-policy):
 * one atomic move from `awaiting_approval` to `rejected` (resolution `rejected`, who, when, why), its
 * duplicate guard released; nothing was sent. The admin who asked may withdraw their own request
 * this way. Forward-only and idempotent: a rejected withdrawal is answered as it is.
 */
export const rejectCryptoWithdrawalStep = createStep(rejectCryptoWithdrawalStepId, async (input: DecideCryptoWithdrawalInput, { container }) => {
  const service = resolveCryptoModule(container)
  const withdrawal = await withdrawalOf(service, input.id)
  if (withdrawal.status === "rejected" && withdrawal.resolution === "rejected") return new StepResponse(withdrawal)
  if (withdrawal.status !== "awaiting_approval") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Withdrawal ${withdrawal.id} is not waiting for approval (status ${withdrawal.status.replace("_", " ")})`)
  }
  const note = input.note ?? ""
  const moved = await service.moveCryptoWithdrawal(withdrawal.id, "awaiting_approval", {
    status: "rejected",
    resolution: "rejected",
    resolved_by: input.actor,
    resolved_at: policyNow(),
    resolution_note: note,
    active_fingerprint: null,
    error_message: `Rejected at approval: ${note}`,
  })
  const current = await withdrawalOf(service, withdrawal.id)
  if (!moved) {
    if (current.status === "rejected" && current.resolution === "rejected") return new StepResponse(current)
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Withdrawal ${current.id} was approved meanwhile (status ${current.status.replace("_", " ")})`)
  }
  await service.createCryptoMoneyOutAudits({
    provider_id: current.provider_id,
    action: "withdrawal_rejected",
    actor: input.actor,
    subject_id: current.id,
    details: { psys_cid: current.psys_cid, total_amount: current.total_amount, value_amount: current.value_amount, value_currency: current.value_currency, requested_by: current.requested_by, note },
  })
  return new StepResponse(current)
})
