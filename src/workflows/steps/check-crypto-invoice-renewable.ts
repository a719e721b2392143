import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"

export const checkCryptoInvoiceRenewableStepId = "check-crypto-invoice-renewable"

/**
 * A cart gets a new invoice only when its invoice can take no more money (expired or cancelled
 * with nothing to keep: session `canceled`/`error`), when the shopper picks another coin before
 * paying anything, or when the cart changed and its invoice no longer pays it (`cart_changed`). An invoice with money on it is never replaced: the shopper would pay twice.
 */
export const checkCryptoInvoiceRenewableStep = createStep(
  checkCryptoInvoiceRenewableStepId,
  async (input: { invoice_id: string; psys_cid?: string | undefined; order_placed: boolean; cart_changed?: boolean }, { container }) => {
    const invoice = await container.resolve<CryptoModuleService>(CRYPTO_MODULE).retrieveCryptoInvoice(input.invoice_id)
    if (input.order_placed) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart's crypto payment has already been received; no new invoice is made")
    }
    // The cart changed: its invoice pays nothing any more (money on it goes back to the shopper,
    // docs/attention.md `abandoned_invoice_payment`), so the cart's new total needs a new invoice.
    if (input.cart_changed === true) {
      return new StepResponse({ invoice_id: invoice.id })
    }
    if (invoice.session_status === "captured" || invoice.session_status === "pending_authorization") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart's crypto payment has already been received; no new invoice is made")
    }
    const closed = invoice.session_status === "canceled" || invoice.session_status === "error"
    const untouched = (invoice.gateway_status ?? "new") === "new"
    const otherCoin = input.psys_cid !== undefined && input.psys_cid !== invoice.psys_cid
    if (!closed && !(untouched && otherCoin)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        untouched
          ? "The cart's crypto invoice can still be paid; pass another psys_cid to pay in another coin"
          : "The cart's crypto invoice has received a payment that is not final yet; no new invoice is made"
      )
    }
    return new StepResponse({ invoice_id: invoice.id })
  }
)
