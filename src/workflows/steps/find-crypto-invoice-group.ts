import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveCryptoModule } from "../../modules/crypto"

export const findCryptoInvoiceGroupStepId = "find-crypto-invoice-group"

/**
 * The invoice a sync decides: the invoice itself, or for a top-up the invoice whose rest it asks
 * for (docs/attention.md#paying-the-rest). A root and its top-ups are synced as one, under the
 * root's lock. Reads only.
 */
export const findCryptoInvoiceGroupStep = createStep(findCryptoInvoiceGroupStepId, async (input: { invoice_id: string }, { container }) => {
  const invoice = await resolveCryptoModule(container).retrieveCryptoInvoice(input.invoice_id, { select: ["id", "topup_of"] })
  return new StepResponse({ invoice_id: invoice.topup_of ?? invoice.id })
})
