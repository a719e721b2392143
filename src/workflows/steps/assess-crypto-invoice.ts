import type { ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { assessInvoice } from "../../providers/crypto/assess"
import { cryptoProviderEntryFor } from "../../providers/crypto/config"
import { toMedusaError } from "../../providers/crypto/errors"
import { createGatewayClient, statusPolicy } from "../../providers/crypto/gateway"
import type { CryptoSessionStatus, SessionOutcome } from "../../providers/crypto/status"

/** The gateway's word on one invoice chain, mapped; plain strings so the workflow can store it. */
export interface CryptoInvoiceAssessment {
  invoice_id: string
  /** null when the invoice was never created at the gateway (a reservation whose call failed). */
  kind: SessionOutcome["kind"] | null
  session_status: CryptoSessionStatus | null
  gateway_status: string | null
  active_txn_id: string | null
  received_amount: string | null
  expected_amount: string | null
  overpaid_amount: string | null
  refund_due_amount: string | null
}

export const assessCryptoInvoiceStepId = "assess-crypto-invoice"

/** Re-reads the invoice and its switch chain from the gateway (spec §4.4) before any money move. */
export const assessCryptoInvoiceStep = createStep(
  assessCryptoInvoiceStepId,
  async (input: { invoice_id: string }, { container }) => {
    const cryptoModule = container.resolve<CryptoModuleService>(CRYPTO_MODULE)
    const invoice = await cryptoModule.retrieveCryptoInvoice(input.invoice_id)
    const none: CryptoInvoiceAssessment = {
      invoice_id: invoice.id,
      kind: null,
      session_status: null,
      gateway_status: null,
      active_txn_id: null,
      received_amount: null,
      expected_amount: null,
      overpaid_amount: null,
      refund_due_amount: null,
    }
    if (invoice.txn_id === null) {
      return new StepResponse(none)
    }
    const configModule = container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
    const { options } = cryptoProviderEntryFor(configModule, invoice.provider_id)
    // The merchant's admin settings (issue 5: tolerance, order on detection) apply from now on.
    const effective = await cryptoModule.getEffectiveSettings(invoice.provider_id, options)
    let decision
    try {
      decision = await assessInvoice(
        createGatewayClient(options),
        cryptoModule,
        { txn_id: invoice.txn_id, order_number: invoice.order_number },
        statusPolicy(effective)
      )
    } catch (error) {
      throw toMedusaError(error, `Checking crypto invoice ${invoice.order_number}`)
    }
    const { outcome, active, observation } = decision
    return new StepResponse<CryptoInvoiceAssessment>({
      invoice_id: invoice.id,
      kind: outcome.kind,
      session_status: outcome.kind === "duplicate" ? "pending" : outcome.sessionStatus,
      gateway_status: active.status,
      active_txn_id: active.id,
      received_amount: observation.received?.toFixed() ?? null,
      expected_amount: observation.expected?.toFixed() ?? null,
      overpaid_amount: outcome.kind === "paid" ? outcome.overpaid?.toFixed() ?? null : null,
      refund_due_amount: outcome.kind === "failed" ? outcome.refundDue?.toFixed() ?? null : null,
    })
  }
)
