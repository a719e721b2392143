/**
 * The admin API's answers, as types only: what the admin UI (src/admin) reads, derived from the
 * server's own declarations so a change on the server changes what the UI compiles against
 * (docs/architecture.md#admin). This module holds `import type` and type declarations only: the admin bundle
 * imports it with `import type`, which TypeScript erases, so no server code reaches the browser.
 */
import type { InferTypeOf } from "@medusajs/framework/types"
import type { InvoiceAccount } from "../../../core/money-out/account"
import type { CryptoBalance, CryptoBalances } from "../../../core/books/balances"
import type { DepositTotal, PayInCallback } from "../../../core/payment/deposits"
import type { CryptoOrderPayment, CryptoRefundQuote } from "../../../core/money-out/refund"
import type { CryptoSettingsView } from "./settings/route"
import type { CRYPTO_SETTINGS_FIELDS } from "../../../workflows/admin/steps/upsert-crypto-settings"
import type { GatewayFailureEvidence, GatewayFailureRead, WithdrawalCandidate, WithdrawalRecipient } from "../../../core/money-out/withdrawal"
import type { CryptoExchange } from "../../../modules/crypto/models/crypto-exchange"
import type { CryptoInvoice } from "../../../modules/crypto/models/crypto-invoice"
import type { CryptoRefundClaim } from "../../../modules/crypto/models/crypto-refund-claim"
import type { RefundClaimStatus } from "../../../core/money-out/refund-claim"
import type { CryptoWithdrawal } from "../../../modules/crypto/models/crypto-withdrawal"

/** A value as `res.json` sends it: a `Date` becomes its ISO string. */
export type Serialized<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer Item>
    ? Serialized<Item>[]
    : T extends object
      ? { [Key in keyof T]: Serialized<T[Key]> }
      : T

/** A field a merchant saves on the settings page (each also in the audit trail). */
export type AdminCryptoSettingsField = (typeof CRYPTO_SETTINGS_FIELDS)[number]

/** One coin's balance (GET /admin/crypto/balances). */
export type AdminCryptoBalance = CryptoBalance
/** GET /admin/crypto/balances. */
export type AdminCryptoBalancesResponse = CryptoBalances & { fetched_at: string }

/** One invoice's account (src/core/money-out/account.ts): every amount in `psys_cid`. */
export type AdminCryptoInvoiceAccount = InvoiceAccount

/** A crypto payment of an order as GET /admin/crypto/orders/:id lists it (its `data` left out). */
export type AdminCryptoOrderPayment = Omit<CryptoOrderPayment, "data">

/** POST /admin/crypto/refunds/quote: `quote`. */
export type AdminCryptoRefundQuote = CryptoRefundQuote

/** One verified pay_in callback (GET /admin/crypto/deposits/callbacks, customer deposits). */
export type AdminCryptoPayIn = Serialized<PayInCallback>
/** A customer's deposits per coin. */
export type AdminCryptoDepositTotal = DepositTotal

/** What the plugin knows of a withdrawal the gateway answered with status `error` (spec §2.3). */
export type AdminCryptoGatewayFailureEvidence = GatewayFailureEvidence
/** One read of a failed withdrawal's operation. */
export type AdminCryptoGatewayFailureRead = GatewayFailureRead
/** An operation that could be a withdrawal of unknown outcome, with why (GET /admin/crypto/withdrawals/:id). */
export type AdminCryptoWithdrawalCandidate = WithdrawalCandidate

/** The `settings` of GET and POST /admin/crypto/settings (the secret key only as `api_key_set`). */
export type AdminCryptoSettings = Serialized<CryptoSettingsView>
/** The settings the payment paths use: `defaults` (medusa-config) and `effective` (with the stored ones). */
export type AdminCryptoEffectiveSettings = AdminCryptoSettings["effective"]

/**
 * A recorded withdrawal (crypto_withdrawal), crypto refunds included, as the withdrawal routes answer
 * it; its JSON columns with the shapes src/core/money-out/withdrawal.ts writes.
 */
export type AdminCryptoWithdrawal = Serialized<Omit<InferTypeOf<typeof CryptoWithdrawal>, "recipients" | "tx_urls" | "gateway_evidence">> & {
  recipients: WithdrawalRecipient[]
  tx_urls: string[] | null
  gateway_evidence: GatewayFailureEvidence | null
}

/** An exchange recorded by the admin (crypto_exchange), as the exchange routes answer it. */
export type AdminCryptoExchange = Serialized<InferTypeOf<typeof CryptoExchange>>

/** An invoice of an order (crypto_invoice), as GET /admin/crypto/orders/:id lists it. */
export type AdminCryptoInvoice = Serialized<InferTypeOf<typeof CryptoInvoice>>

/**
 * A refund the customer claims, as GET /admin/crypto/refund-claims lists it
 * (docs/money-out.md#refunds-the-shopper-claims): its status derived (waiting, sending, sent,
 * unknown, failed, expired, revoked); never its token.
 */
export type AdminCryptoRefundClaim = Serialized<
  Pick<
    InferTypeOf<typeof CryptoRefundClaim>,
    "id" | "order_id" | "kind" | "amount" | "psys_cid" | "expires_at" | "address" | "claimed_at" | "withdrawal_id" | "error" | "created_by" | "created_at" | "revoked_by" | "revoked_at"
  >
> & { status: RefundClaimStatus }

/** POST /admin/crypto/refund-claims: the claim and the link for the customer, shown once. */
export interface AdminCryptoRefundClaimCreated {
  claim: { id: string; provider_id: string; link: string; expires_at: string; amount: string; psys_cid: string }
  link: string
}
export type { AdminCryptoAttentionFacts, AdminCryptoAttentionItem, AdminCryptoAttentionKind, AdminCryptoMoneyFact } from "./attention/types"
export type { AdminCryptoVolumeChartResponse, AdminCryptoBalanceChartResponse, AdminCryptoAttentionChartResponse } from "./charts/types"
