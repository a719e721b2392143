import type * as Kit from "../../../../storefront/types"
import type { ShopperPaymentStatus } from "../../../../core/payment/shopper-status"
import type { StoreCryptoCurrenciesResponse, StoreCryptoPaymentStatusResponse, StoreCryptoRefundClaimResponse } from "../types"

/**
 * The storefront kit is published alone, so the store routes' answers are declared there, once
 * (src/storefront/types.ts), and the routes answer in them (../types.ts); the payment status adds
 * each invoice's `account`, the books the merchant's tools read and the kit does not. Each answer is
 * checked here to be exactly the kit's by `npm run typecheck`: a field added to a route beside the
 * kit's, or a route's vocabulary drifting from the kit's, fails it.
 */
/** A and B are the same type with the same fields. */
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false

type Status = StoreCryptoPaymentStatusResponse
type Invoice = NonNullable<Status["invoice"]>
type Abandoned = Status["abandoned_payments"][number]
type Rest = NonNullable<Invoice["rest"]>
type Currencies = StoreCryptoCurrenciesResponse
type Claim = StoreCryptoRefundClaimResponse["claim"]
/** The answer without the invoices' `account`: what a storefront reads. */
type ReadByKit = Omit<Status, "invoice" | "abandoned_payments"> & { invoice: Omit<Invoice, "account"> | null; abandoned_payments: Omit<Abandoned, "account">[] }

const agree = {
  // GET /store/crypto/payment-status (and the refresh and top-up answers).
  status: true satisfies Same<Kit.CryptoPaymentStatusResponse, ReadByKit>,
  invoice: true satisfies Same<Kit.CryptoInvoiceStatus, Omit<Invoice, "account">>,
  // The status map's vocabulary (src/core/payment/shopper-status.ts) is the kit's.
  shopperStatus: true satisfies Same<Kit.CryptoInvoicePaymentStatus, ShopperPaymentStatus>,
  confirmations: true satisfies Same<Kit.CryptoConfirmations, NonNullable<Invoice["confirmations"]>>,
  rest: true satisfies Same<Kit.CryptoPaymentRest, Rest>,
  topUp: true satisfies Same<Kit.CryptoTopUp, NonNullable<Rest["top_up"]>>,
  abandoned: true satisfies Same<Kit.CryptoAbandonedPayment, Omit<Abandoned, "account">>,
  // GET /store/crypto/currencies
  currencies: true satisfies Same<Kit.CryptoCurrenciesResponse, Currencies>,
  currency: true satisfies Same<Kit.CryptoCurrencyOption, Currencies["currencies"][number]>,
  unavailable: true satisfies Same<Kit.CryptoCurrencyUnavailable, Currencies["unavailable"][number]>,
  // GET and POST /store/crypto/refund-claims (docs/money-out.md#refunds-the-shopper-claims)
  claim: true satisfies Same<Kit.CryptoRefundClaim, Claim>,
  claimStatus: true satisfies Same<Kit.CryptoRefundClaimStatus, Claim["status"]>,
}

describe("the storefront kit's declarations of the store routes' answers", () => {
  it("are the answers of the routes, less the merchant's account", () => {
    expect(Object.values(agree).every((same) => same)).toBe(true)
  })
})
