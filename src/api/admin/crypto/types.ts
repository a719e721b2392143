/**
 * The admin API's answers, as types only: each route declares `res: MedusaResponse<T>` with its T
 * from here, derived from what its workflow, step or core function returns, so a change on the server
 * changes what the admin UI (src/admin) compiles against (docs/architecture.md#admin). The UI reads
 * `Serialized<T>`. This module holds `import type` and type declarations only: the admin bundle
 * imports it with `import type`, which TypeScript erases, so no server code reaches the browser.
 */
import type { InferTypeOf } from "@medusajs/framework/types"
import type { ReturnWorkflow } from "@medusajs/framework/workflows-sdk"
import type { MoneyFact } from "../../../core/books/attention-facts"
import type { AttentionQueueItemWithFacts } from "../../../core/books/attention-queue"
import type { BalanceHistory } from "../../../core/books/balance-snapshot"
import type { CryptoBalances } from "../../../core/books/balances"
import type { AttentionChart, VolumeChart } from "../../../core/books/charts"
import type { Wire } from "../../../core/money"
import type { InvoiceAccount } from "../../../core/money-out/account"
import type { CryptoOrderPayment, CryptoRefundQuote } from "../../../core/money-out/refund"
import type { RefundClaimStatus } from "../../../core/money-out/refund-claim"
import type { GatewayFailureEvidence, WithdrawalCandidate, WithdrawalRecipient } from "../../../core/money-out/withdrawal"
import type { DepositTotal, PayInCallback } from "../../../core/payment/deposits"
import type { CommissionEstimate, Currency, Deposit, Exchange, ExchangeCurrencies, ExchangeEstimate, FeeEstimate, FeePlans, Operation, OperationListMeta } from "../../../gateway"
import type { CryptoCallback } from "../../../modules/crypto/models/crypto-callback"
import type { CryptoInvoice } from "../../../modules/crypto/models/crypto-invoice"
import type { CryptoRefundClaim } from "../../../modules/crypto/models/crypto-refund-claim"
import type { CryptoAddressRecord, CryptoAttentionRecord, CryptoMoneyOutAuditRecord, CryptoPolicyChangeRecord, CryptoWithdrawalRecord } from "../../../modules/crypto/service"
import type { snapshotCryptoBalancesWorkflow } from "../../../workflows/snapshot-crypto-balances"
import type { createCryptoExchangeWorkflow, CryptoExchangeRecord, reconcileCryptoWithdrawalWorkflow, refundCryptoAttentionWorkflow, resolveCryptoAttentionWorkflow, resolveCryptoExchangeWorkflow, resolveCryptoWithdrawalWorkflow, SentCryptoWithdrawal } from "../../../workflows/admin"
import type { createCryptoRefundClaimWorkflow, revokeCryptoRefundClaimWorkflow } from "../../../workflows/admin/create-crypto-refund-claim"
import type { checkCryptoCallbackUrlWorkflow } from "../../../workflows/admin/check-crypto-callback-url"
import type { CRYPTO_SETTINGS_FIELDS } from "../../../workflows/admin/steps/upsert-crypto-settings"
import type { CryptoSettingsView } from "./settings/route"
import type { moneyOutPolicyOf } from "./money-out/policy/route"
import type { OperationOrders } from "./operations/invoice-orders"

/** What a workflow answers: its `run(…).result`. */
type ResultOf<W> = W extends ReturnWorkflow<infer _Input, infer Result, infer _Hooks> ? Result : never
/** A page of a list: how many there are in all, and which page was asked for. */
type Page = { count: number; limit: number; offset: number }

/**
 * A route's answer as the admin reads it (`res.json`): a `Date` becomes its ISO string, and a
 * withdrawal's JSON columns have the shapes src/core/money-out/withdrawal.ts writes.
 */
export type Serialized<T> = T extends CryptoWithdrawalRecord
  ? AdminCryptoWithdrawal
  : T extends Date
    ? string
    : T extends string
      ? T
      : T extends ReadonlyArray<infer Item>
        ? Serialized<Item>[]
        : T extends object
          ? { [Key in keyof T]: Serialized<T[Key]> }
          : T

/** A recorded withdrawal (crypto_withdrawal), crypto refunds included, as the withdrawal routes answer it. */
type AdminCryptoWithdrawal = Serialized<Omit<CryptoWithdrawalRecord, "recipients" | "tx_urls" | "gateway_evidence">> & {
  recipients: WithdrawalRecipient[]
  tx_urls: string[] | null
  gateway_evidence: GatewayFailureEvidence | null
}

/** A field a merchant saves on the settings page (each also in the audit trail). */
export type AdminCryptoSettingsField = (typeof CRYPTO_SETTINGS_FIELDS)[number]
/** What needs the merchant's decision: a stored kind (crypto_attention) or one derived from a money-out record. */
export type AdminCryptoAttentionKind = AttentionQueueItemWithFacts["kind"]
/** One item of GET /admin/crypto/attention, with its `facts`. */
export type AdminCryptoAttentionItem = Serialized<AttentionQueueItemWithFacts>
export type AdminCryptoMoneyFact = MoneyFact

/** A 409 a money-out route answers itself: the payment is held by an earlier one that failed at the gateway (conflict.ts). */
export type AdminCryptoConflictResponse = { type: "conflict"; message: string }

/** GET /admin/crypto/attention */
export type AdminCryptoAttentionResponse = { items: AttentionQueueItemWithFacts[] } & Page
/** GET /admin/crypto/attention/count */
export type AdminCryptoAttentionCountResponse = { count: number }
/** POST /admin/crypto/attention/:id/resolve */
export type AdminCryptoAttentionResolveResponse = { attention: ResultOf<typeof resolveCryptoAttentionWorkflow> }
/** POST /admin/crypto/attention/:id/refund */
export type AdminCryptoAttentionRefundResponse = ResultOf<typeof refundCryptoAttentionWorkflow>
/** GET /admin/crypto/balances */
export type AdminCryptoBalancesResponse = CryptoBalances & { fetched_at: string }
/** GET /admin/crypto/charts/volume: amounts are decimal strings with their coin or fiat code, days UTC `YYYY-MM-DD` (docs/books.md). */
export type AdminCryptoVolumeChartResponse = VolumeChart & { provider_id: string | null }
/** GET /admin/crypto/charts/balances */
export type AdminCryptoBalanceChartResponse = BalanceHistory & { provider_id: string }
/** POST /admin/crypto/charts/balances */
export type AdminCryptoBalanceSnapshotResponse = { snapshots: ResultOf<typeof snapshotCryptoBalancesWorkflow> }
/** GET /admin/crypto/charts/attention */
export type AdminCryptoAttentionChartResponse = AttentionChart & { truncated: boolean }
/** POST /admin/crypto/commission-estimate */
export type AdminCryptoCommissionEstimateResponse = { commission: Wire<CommissionEstimate> }
/** POST /admin/crypto/fee-estimate */
export type AdminCryptoFeeEstimateResponse = { fee: Wire<FeeEstimate> }
/** GET /admin/crypto/fee-plans/:psys_cid */
export type AdminCryptoFeePlansResponse = { psys_cid: string; plans: Wire<FeePlans> }
/** GET /admin/crypto/currencies */
export type AdminCryptoCurrenciesResponse = { fiat: string; currencies: Wire<Currency[]> }
/** GET /admin/crypto/customers/:id/deposits: `addresses_error` says why the addresses could not be read. */
export type AdminCryptoCustomerDepositsResponse = {
  customer_id: string
  addresses: Wire<Deposit[]>
  addresses_error: string | null
  pay_ins: PayInCallback[]
  pay_in_count: number
  totals: DepositTotal[]
}
/** GET /admin/crypto/deposits/callbacks */
export type AdminCryptoDepositCallbacksResponse = { callbacks: PayInCallback[] } & Page
/** GET /admin/crypto/deposits */
export type AdminCryptoDepositsResponse = { deposits: Deposit[]; page: number; limit: number }
/** POST /admin/crypto/deposits */
export type AdminCryptoDepositsCreatedResponse = { deposits: Wire<Deposit>[] }
/** GET /admin/crypto/exchanges */
export type AdminCryptoExchangesResponse = { exchanges: CryptoExchangeRecord[] } & Page
/** POST /admin/crypto/exchanges */
export type AdminCryptoExchangeCreatedResponse = ResultOf<typeof createCryptoExchangeWorkflow>
/** GET /admin/crypto/exchanges/:id: a recorded exchange (`cexc_…`), or the gateway's by its id. */
export type AdminCryptoExchangeResponse = { exchange: CryptoExchangeRecord | Wire<Exchange> }
/** POST /admin/crypto/exchanges/:id/resolve */
export type AdminCryptoExchangeResolveResponse = { exchange: ResultOf<typeof resolveCryptoExchangeWorkflow> }
/** GET /admin/crypto/exchanges/currencies */
export type AdminCryptoExchangeCurrenciesResponse = { currencies: Wire<ExchangeCurrencies> }
/** POST /admin/crypto/exchanges/estimate */
export type AdminCryptoExchangeEstimateResponse = { estimate: Wire<ExchangeEstimate> }
/** GET /admin/crypto/operations */
/** GET /admin/crypto/operations: a page of operations, and the order (`#12`) of each invoice among them whose cart became one. */
export type AdminCryptoOperationsResponse = { operations: Wire<Operation[]>; meta: OperationListMeta; has_next: boolean; orders: OperationOrders }
/** GET /admin/crypto/operations/:id */
export type AdminCryptoOperationResponse = { operation: Wire<Operation> }
/** GET /admin/crypto/orders/:id: `operation` null with `operation_error` when the gateway could not be read. */
export type AdminCryptoOrderResponse = {
  order_id: string
  currency_code: string
  is_crypto: boolean
  payments: Omit<CryptoOrderPayment, "data">[]
  invoices: InferTypeOf<typeof CryptoInvoice>[]
  current_invoice_id: string | null
  accounts: InvoiceAccount[]
  attention: CryptoAttentionRecord[]
  operation: Wire<Operation> | null
  operation_error: string | null
  /** The verified invoice callbacks (the status history), oldest first. */
  history: Array<
    Pick<InferTypeOf<typeof CryptoCallback>, "id" | "order_number" | "txn_id" | "status" | "delivery_count"> & {
      amount: string | null
      currency: string | null
      confirmations: string | null
      received_at: Date
      tx_urls: string[]
    }
  >
  withdrawals: CryptoWithdrawalRecord[]
}
/** POST /admin/crypto/refunds/quote: the coin amount a fiat refund sends at the current rate. */
export type AdminCryptoRefundQuoteResponse = { quote: CryptoRefundQuote }
/** POST /admin/crypto/refunds and POST /admin/crypto/withdrawals (or a 409: AdminCryptoConflictResponse). */
export type AdminCryptoWithdrawalCreatedResponse = SentCryptoWithdrawal
/** GET /admin/crypto/withdrawals */
export type AdminCryptoWithdrawalsResponse = { withdrawals: CryptoWithdrawalRecord[] } & Page
/** GET /admin/crypto/withdrawals/:id: `candidates` while its outcome is unknown. */
export type AdminCryptoWithdrawalResponse = { withdrawal: CryptoWithdrawalRecord; candidates: WithdrawalCandidate[] }
/** POST /admin/crypto/withdrawals/:id/reconcile */
export type AdminCryptoWithdrawalReconcileResponse = ResultOf<typeof reconcileCryptoWithdrawalWorkflow>
/** POST /admin/crypto/withdrawals/:id/resolve */
export type AdminCryptoWithdrawalResolveResponse = { withdrawal: ResultOf<typeof resolveCryptoWithdrawalWorkflow> }
/** GET and POST /admin/crypto/settings (the secret key only as `api_key_set`). */
export type AdminCryptoSettingsResponse = { settings: CryptoSettingsView }
/** POST /admin/crypto/settings/test: always 200, `ok` says how it went. */
export type AdminCryptoSettingsTestResponse = { provider_id: string; latency_ms: number; message: string } & ({ ok: true; coins: number } | { ok: false })
/** POST /admin/crypto/settings/callback-check: always 200, `answered_by_this_store` says how it went (docs/troubleshooting.md#check-the-callback-url). */
export type AdminCryptoCallbackCheckResponse = ResultOf<typeof checkCryptoCallbackUrlWorkflow>

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
/** GET /admin/crypto/refund-claims?order_id= */
export type AdminCryptoRefundClaimsResponse = { claims: AdminCryptoRefundClaim[] }
/** POST /admin/crypto/refund-claims: the claim and the link for the customer, shown once. */
export type AdminCryptoRefundClaimCreated = { claim: ResultOf<typeof createCryptoRefundClaimWorkflow>; link: string }
/** POST /admin/crypto/refund-claims/:id/revoke */
export type AdminCryptoRefundClaimRevokeResponse = { claim: Pick<ResultOf<typeof revokeCryptoRefundClaimWorkflow>, "id" | "status" | "revoked_at" | "revoked_by"> }

/** The money-out policy as the Money out section shows it (docs/money-out.md#money-out-policy). */
export type AdminCryptoMoneyOutPolicy = Awaited<ReturnType<typeof moneyOutPolicyOf>>
/** GET /admin/crypto/money-out/policy */
export type AdminCryptoMoneyOutPolicyResponse = { policy: AdminCryptoMoneyOutPolicy }
/** POST /admin/crypto/money-out/policy: the changes recorded (each with when it takes effect) and the policy after them. */
export type AdminCryptoMoneyOutPolicySavedResponse = { changes: CryptoPolicyChangeRecord[]; policy: AdminCryptoMoneyOutPolicy }
/** GET /admin/crypto/money-out/addresses */
export type AdminCryptoAddressesResponse = { addresses: CryptoAddressRecord[] }
/** POST /admin/crypto/money-out/addresses: 201 when saved now, 200 when the address was in the book already. */
export type AdminCryptoAddressCreatedResponse = { address: CryptoAddressRecord; created: boolean }
/** DELETE /admin/crypto/money-out/addresses/:id */
export type AdminCryptoAddressRemovedResponse = { address: CryptoAddressRecord }
/** GET /admin/crypto/money-out/audit: the policy's decisions, newest first (History). */
export type AdminCryptoMoneyOutAuditResponse = { entries: CryptoMoneyOutAuditRecord[] } & Page
/** POST /admin/crypto/withdrawals/:id/reject */
export type AdminCryptoWithdrawalRejectResponse = { withdrawal: CryptoWithdrawalRecord }
/** POST /admin/crypto/reconcile (202): the reconciliation was asked for; a worker runs it. */
export type AdminCryptoReconcileResponse = { requested_at: string }
