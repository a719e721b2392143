import type * as Kit from "../../../../storefront/types"
import type { StoreCryptoCurrenciesResponse, StoreCryptoPaymentStatusResponse, StoreCryptoRefundClaimResponse } from "../types"

/**
 * The storefront kit is published alone, so it declares the store routes' answers itself
 * (src/storefront/types.ts); each declaration is checked here against the route's (../types.ts) by
 * `npm run typecheck`: a field added or dropped on one side, or an answer the kit cannot read, fails it.
 */
/** A and B are the same type with the same fields. */
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false
/**
 * The kit names the same fields, less `omitted`, and reads every answer the route can send. It may
 * read more: a field absent from an older store or a hosted invoice (optional, null) and a status a
 * newer store adds (open text), as its comments say (src/storefront/types.ts).
 */
type Reads<KitType, Route, Omitted extends keyof Route = never> = [Route] extends [KitType] ? Same<keyof KitType, Exclude<keyof Route, Omitted>> : false

type Status = StoreCryptoPaymentStatusResponse
type Invoice = NonNullable<Status["invoice"]>
type Rest = NonNullable<Invoice["rest"]>
type Currencies = StoreCryptoCurrenciesResponse
type Claim = StoreCryptoRefundClaimResponse["claim"]

const agree = {
  // GET /store/crypto/payment-status (and the refresh and top-up answers). `account`, the invoice's
  // books (sent back, refunded, held), is sent for the merchant's tools: the kit does not read it.
  status: true satisfies Reads<Kit.CryptoPaymentStatusResponse, Status>,
  invoice: true satisfies Reads<Kit.CryptoInvoiceStatus, Invoice, "account">,
  shopperStatus: true satisfies Same<Kit.CryptoInvoicePaymentStatus, Invoice["shopper_status"]>,
  confirmations: true satisfies Same<Kit.CryptoConfirmations, NonNullable<Invoice["confirmations"]>>,
  rest: true satisfies Reads<Kit.CryptoPaymentRest, Rest>,
  topUp: true satisfies Reads<Kit.CryptoTopUp, NonNullable<Rest["top_up"]>>,
  abandoned: true satisfies Reads<Kit.CryptoAbandonedPayment, Status["abandoned_payments"][number], "account">,
  // GET /store/crypto/currencies
  currencies: true satisfies Reads<Kit.CryptoCurrenciesResponse, Currencies>,
  currency: true satisfies Same<Kit.CryptoCurrencyOption, Currencies["currencies"][number]>,
  unavailable: true satisfies Reads<Kit.CryptoCurrencyUnavailable, Currencies["unavailable"][number]>,
  // GET and POST /store/crypto/refund-claims (docs/money-out.md#refunds-the-shopper-claims)
  claim: true satisfies Same<Kit.CryptoRefundClaim, Claim>,
  claimStatus: true satisfies Same<Kit.CryptoRefundClaimStatus, Claim["status"]>,
}

describe("the storefront kit's declarations of the store routes' answers", () => {
  it("are checked by the compiler, one per answer and part of an answer", () => {
    expect(Object.values(agree).every((same) => same)).toBe(true)
  })
})
