import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { CryptoWithdrawalRecord } from "../../../modules/crypto/service"
import { resolveCryptoModule } from "../../../modules/crypto"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import { checkAmounts, normalizeRecipients, placesOfCoin, totalAmount, withdrawalFingerprint, type WithdrawalRecipient } from "../../../core/money-out/withdrawal"
import { createCryptoSendBack } from "../../../core/payment/top-up"
import { admitWithdrawal, auditAllowed, auditRefusal, policyNow, recordWithinDailyLimit, type MoneyOutRefusal } from "../../../core/money-out/policy"
import { storeDefaultCurrency } from "../../../core/books/charts"

export type { CryptoWithdrawalRecord }

export interface ReserveCryptoWithdrawalInput {
  idempotency_key: string
  provider_id?: string
  psys_cid: string
  fee_plan: "normal" | "priority"
  recipients: WithdrawalRecipient[]
  requested_by?: string | null
  purpose?: "withdrawal" | "refund" | "overpayment" | "underpayment" | "late_payment" | "unexplained"
  order_id?: string | null
  payment_id?: string | null
  invoice_id?: string | null
  source_currency?: string | null
  source_amount?: string | null
  source_rate?: string | null
  note?: string | null
  /**
   * The request field that holds the amount, named in an amount error: a refund's `amount`;
   * default `recipients[<i>].amount`.
   */
  amount_field?: string
  /** A refund the shopper claimed with their own address: above the policy's claim review threshold it waits for an admin. */
  claimed?: boolean
}

export interface CryptoWithdrawalReservation {
  withdrawal: CryptoWithdrawalRecord
  /** True when this request recorded the withdrawal and so is the one that may send it. */
  reserved: boolean
}

export const reserveCryptoWithdrawalStepId = "reserve-crypto-withdrawal"

/**
 * Records the withdrawal under its idempotency key BEFORE anything is sent. Whoever inserts the
 * row is the only sender: a second request with the same key (double click, retry, another tab)
 * gets the recorded withdrawal back and sends nothing. An identical withdrawal with another key is
 * refused while the first is unresolved (the unique `active_fingerprint`): 400, or 409 when the
 * first failed at the gateway undecided (docs/money-out.md#failed-at-the-gateway). Every amount is
 * checked first (docs/money-out.md#amounts): a refused amount records and sends nothing. Then the
 * money-out policy (docs/money-out.md#money-out-policy): a merchant's withdrawal goes only to saved
 * addresses past their cooling-off and within its coin's daily limit (checked and recorded under the
 * coin's lock); a refusal is audited and thrown, nothing recorded or sent; one worth more than the
 * approval threshold (store currency) is recorded `awaiting_approval`, sent only once another admin
 * approves it, as is a claimed refund above the claim review threshold. (A refund goes to the
 * shopper's address, not the merchant's address book.) Nothing is compensated:
 * the record of an attempt is kept whatever happens next.
 */
export const reserveCryptoWithdrawalStep = createStep(
  reserveCryptoWithdrawalStepId,
  async (input: ReserveCryptoWithdrawalInput, { container }) => {
    const service = resolveCryptoModule(container)
    const { entry, client } = await resolveCryptoProvider(container, input.provider_id)
    const amounts = input.recipients.map((recipient, index) => ({ field: input.amount_field ?? `recipients[${index}].amount`, value: recipient.amount }))
    // The form of every amount first (docs/money-out.md#amounts); its coin's places below, once
    // we know this request records a new withdrawal (a replay answers without the gateway).
    checkAmounts(amounts, Number.POSITIVE_INFINITY, input.psys_cid)
    const recipients = normalizeRecipients(input.recipients)
    const type = recipients.length > 1 ? "mass_cash_out" : "cash_out"
    const fingerprint = withdrawalFingerprint(input.psys_cid, type, recipients)

    const findByKey = async (): Promise<CryptoWithdrawalRecord | undefined> => {
      const [found] = await service.listCryptoWithdrawals({ idempotency_key: input.idempotency_key }, { take: 1 })
      return found
    }
    const sameWithdrawal = (existing: CryptoWithdrawalRecord): CryptoWithdrawalRecord => {
      if (existing.fingerprint !== fingerprint) {
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `idempotency_key "${input.idempotency_key}" was already used for another withdrawal (${existing.id}); a new withdrawal needs a new key (field: idempotency_key)`
        )
      }
      return existing
    }

    const existing = await findByKey()
    if (existing !== undefined) {
      return new StepResponse<CryptoWithdrawalReservation>({ withdrawal: sameWithdrawal(existing), reserved: false })
    }
    // At most the coin's places (spec §2.4 `precision`), before anything is recorded or sent.
    checkAmounts(amounts, await placesOfCoin(client, service, input.psys_cid), input.psys_cid)
    const purpose = input.purpose ?? "withdrawal"
    const now = policyNow()
    const admission = await admitWithdrawal(
      { store: service, client, defaults: entry.options.moneyOut, storeCurrency: () => storeDefaultCurrency(container), now },
      {
        provider_id: entry.providerId,
        psys_cid: input.psys_cid,
        purpose,
        claimed: input.claimed === true,
        type,
        recipients,
        total_amount: totalAmount(recipients),
        requested_by: input.requested_by ?? null,
        idempotency_key: input.idempotency_key,
      }
    )
    let recorded: { created: CryptoWithdrawalRecord } | { refusal: MoneyOutRefusal }
    try {
      const row = {
        idempotency_key: input.idempotency_key,
        fingerprint,
        active_fingerprint: fingerprint,
        provider_id: entry.providerId,
        type,
        psys_cid: input.psys_cid,
        fee_plan: input.fee_plan,
        // model.json() is typed as an object; a JSON array is what we store (read back by recipientsOf).
        recipients: recipients.map((r) => ({ address: r.address, amount: r.amount })) as unknown as Record<string, unknown>,
        total_amount: totalAmount(recipients),
        status: admission.awaiting_approval ? "awaiting_approval" : "requested",
        value_amount: admission.value_amount,
        value_currency: admission.value_currency,
        requested_by: input.requested_by ?? null,
        requested_at: new Date(),
        purpose,
        order_id: input.order_id ?? null,
        payment_id: input.payment_id ?? null,
        invoice_id: input.invoice_id ?? null,
        source_currency: input.source_currency ?? null,
        source_amount: input.source_amount ?? null,
        source_rate: input.source_rate ?? null,
        note: input.note ?? null,
      } satisfies Partial<CryptoWithdrawalRecord>
      // An underpayment goes back only while no top-up of its invoice is open, checked under the
      // lock top-ups are opened under (docs/attention.md#paying-the-rest).
      // A coin with a daily limit is recorded under the coin's lock, the limit checked with it.
      const { daily_limit } = admission
      recorded =
        row.purpose === "underpayment" && row.invoice_id !== null
          ? { created: await createCryptoSendBack(service, { ...row, invoice_id: row.invoice_id }) }
          : daily_limit !== null
            ? await recordWithinDailyLimit(service, { ...admission, daily_limit }, row, now)
            : { created: await service.createCryptoWithdrawals(row) }
    } catch (error) {
      // Lost a race on one of the two unique keys: find out which, without sending anything.
      const raced = await findByKey()
      if (raced !== undefined) {
        return new StepResponse<CryptoWithdrawalReservation>({ withdrawal: sameWithdrawal(raced), reserved: false })
      }
      const [blocking] = await service.listCryptoWithdrawals({ active_fingerprint: fingerprint }, { take: 1 })
      if (blocking !== undefined && blocking.status === "error") {
        // Failed at the gateway, undecided: the gateway holds an operation for the same payment
        // (docs/money-out.md#failed-at-the-gateway). The route answers 409.
        throw new MedusaError(
          MedusaError.Types.CONFLICT,
          `The same payment was asked before as withdrawal ${blocking.id} (requested ${blocking.requested_at.toISOString()}), which failed at the gateway: operation ${blocking.operation_id ?? "unknown"}, status ${blocking.gateway_status ?? "error"}. It is not sent again until you decide: check the operation at the gateway, then resolve ${blocking.id} ("failed: allow sending again", with a note) (field: recipients)`
        )
      }
      if (blocking !== undefined) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `An identical withdrawal (${blocking.id}, requested ${blocking.requested_at.toISOString()}) is still ${blocking.status.replace("_", " ")}: check it (Crypto → Operations, or "Check status") before sending the same payment again`
        )
      }
      throw error
    }
    if ("refusal" in recorded) {
      throw await auditRefusal(service, admission.request ?? { kind: "withdrawal", provider_id: entry.providerId, actor: input.requested_by ?? null, details: {} }, recorded.refusal)
    }
    const { created } = recorded
    if (admission.request !== null) await auditAllowed(service, admission.request, created.id, admission.address_ids, admission.awaiting_approval)
    return new StepResponse<CryptoWithdrawalReservation>({ withdrawal: created, reserved: true })
  }
)
