import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, MedusaError, PaymentActions } from "@medusajs/framework/utils"
import type { Invoice } from "../../gateway"
import { sharedLockingWarning, type DeploymentConfig } from "../../core/config/deployment"
import { belowMinimum, listCurrencies, offeredCoins, resolveCoinId, type CachedCurrency } from "../../core/payment/currency-cache"
import { failureReason, toMedusaError } from "../../core/errors"
import { CryptoEvents, invoiceCreatedEvent } from "../../core/events"
import { assessInvoiceChain, assessUnderInvoicePolicy, gatewayReadingOf, statusPolicy, storedReadingCoin, usableStoredReading, type GatewayReading, type OperationReader } from "../../core/payment/invoice-chain"
import type { StatusPolicy } from "../../core/payment/payment-state"
import { fiatToMinorUnits, sessionAmountToDecimalString, shopperCommission } from "../../core/money"
import { assessInvoiceGroup, topUpCommission } from "../../core/payment/top-up"
import { isClearRefusal } from "../../core/money-out/withdrawal"
import {
  callbackUrl,
  optionWarnings,
  parseCryptoOptions,
  returnUrl,
  type CryptoProviderOptions,
  type ResolvedCryptoOptions,
} from "../../core/config/options"
import { createGatewayClient, CRYPTO_PROVIDER_IDENTIFIER, entryIdOf } from "../../core/config/provider-entry"
import { readEffectiveOptionsCached } from "../../core/config/settings"
import { invoiceBooksAtCreation } from "../../core/payment/invoice-books"
import { applicationDeps, type ProviderDeps, type ProviderDepsFactory, type ProviderGateway } from "./deps"
import { consumeCryptoRefundAuthorization, PLAIN_REFUND_MESSAGE } from "../../core/money-out/refund-authorization"

type SessionData = Record<string, unknown>

/**
 * The payment module's local container (docs/architecture.md#the-provider); only the logger is used
 * from it.
 */
type InjectedDependencies = Record<string, unknown> & { logger: Logger }

/**
 * At boot, when the provider is built (once per provider entry): a server/worker store needs a
 * shared locking provider (`sharedLockingWarning`). No process-wide "warned already" flag: a store
 * with several crypto entries gets the line once per entry.
 */
function warnWithoutSharedLocking(cradle: InjectedDependencies): void {
  let config: DeploymentConfig | undefined
  try {
    // The Payment Module's container holds `configModule` in a store; a bare cradle may not.
    config = cradle.configModule as DeploymentConfig | undefined
  } catch {
    config = undefined
  }
  const warning = sharedLockingWarning(config)
  if (warning !== undefined) cradle.logger.warn(warning)
}

/** What a test may put in place of the application: the collaborators and the gateway client. */
export interface ProviderSeam {
  deps?: ProviderDepsFactory
  client?: ProviderGateway
}

const text = (data: SessionData | undefined, key: string): string | undefined => {
  const value = data?.[key]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
}

/**
 * The crypto payment provider: a thin adapter between Medusa's payment module and the gateway
 * client. Money states always come from the gateway (`operations.retrieve`), mapped by the one
 * status map (src/core/payment/payment-state.ts).
 */
class CryptoPaymentProviderService extends AbstractPaymentProvider<CryptoProviderOptions> {
  static override identifier = CRYPTO_PROVIDER_IDENTIFIER

  /** Runs at boot: a wrong option stops the server with a message naming it. */
  static override validateOptions(options: Record<string, unknown>): void {
    parseCryptoOptions(options)
  }

  protected readonly options_: ResolvedCryptoOptions
  protected readonly logger_: Logger
  protected readonly client_: ProviderGateway
  protected readonly deps_: ProviderDepsFactory

  /** Medusa passes `cradle` and `options`; `seam` is for unit tests (fakes for the application). */
  constructor(cradle: InjectedDependencies, options: CryptoProviderOptions, seam: ProviderSeam = {}) {
    // The cradle is an awilix proxy: passed as is (spreading it would resolve every registration).
    super(cradle, options)
    this.options_ = parseCryptoOptions(options)
    this.logger_ = cradle.logger
    this.client_ = seam.client ?? createGatewayClient(this.options_)
    this.deps_ = seam.deps ?? (() => applicationDeps())
    // The provider is a singleton: this runs once per boot.
    for (const warning of optionWarnings(this.options_)) {
      this.logger_.warn(warning)
    }
    warnWithoutSharedLocking(cradle)
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const data: SessionData = input.data ?? {}
    const sessionId = text(data, "session_id")
    if (sessionId === undefined) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "initiatePayment: data.session_id is missing (Medusa passes it; was the provider called directly?)")
    }
    const sourceCurrency = input.currency_code.toUpperCase()
    const sourceAmount = gatewaySourceAmount(input.amount, sourceCurrency)

    const deps = this.deps_()
    const cryptoModule = deps.cryptoModule
    const session = await deps.paymentModule.retrievePaymentSession(sessionId, {
      select: ["id", "payment_collection_id", "provider_id"],
    })
    // Three independent reads at once: the settings (the merchant's admin settings apply from the
    // next checkout on; read through Medusa's cache module, docs/architecture.md#effective-settings),
    // the cart, and the gateway's coins in this fiat (cached list, spec §4.8): a fiat the gateway
    // does not take is refused before anything is created, and the coin is checked against the
    // shop's settings and the gateway's minimum.
    const [options, cart, coins] = await Promise.all([
      readEffectiveOptionsCached(cryptoModule, session.provider_id, this.options_),
      this.findCart(deps, session.payment_collection_id),
      listCurrencies(this.client_, cryptoModule, sourceCurrency),
    ])
    const psysCid = chooseCoin(data.psys_cid, options, coins, { amount: sourceAmount, currency: sourceCurrency })
    const entryId = entryIdOf(session.provider_id) ?? CRYPTO_PROVIDER_IDENTIFIER
    // A coin the shop disabled at the gateway in the accepted list would make the gateway refuse
    // every invoice (spec §4.1 `allowed_psys_cids`): only coins it offers are sent.
    const allowed = options.allowedCurrencies.length > 0 ? offeredCoins(coins, options.allowedCurrencies).map((coin) => coin.psys_cid) : []

    // The order number is reserved in our module before the gateway is asked (one transaction
    // under a lock on the cart, src/core/payment/invoice-reservation.ts).
    const base = cart?.id ?? session.payment_collection_id
    const reservation = await cryptoModule.reserveCryptoInvoice({
      base,
      cart_id: cart?.id ?? null,
      payment_collection_id: session.payment_collection_id,
      session_id: sessionId,
      provider_id: session.provider_id,
      source_amount: sourceAmount,
      source_currency: sourceCurrency,
      ...(psysCid !== undefined ? { psys_cid: psysCid } : {}),
    })

    let invoice: Invoice
    try {
      invoice = await this.client_.invoices.create({
        order_number: reservation.order_number,
        order_name: `Order ${reservation.order_number}`,
        source_currency: sourceCurrency,
        source_amount: sourceAmount,
        ...(psysCid !== undefined ? { currency: psysCid } : {}),
        ...(allowed.length > 0 ? { allowed_psys_cids: allowed } : {}),
        ...optional("callback_url", callbackUrl(this.options_, entryId)),
        ...optional("success_invoice_url", returnUrl(this.options_, "success", cart?.id)),
        ...optional("fail_invoice_url", returnUrl(this.options_, "fail", cart?.id)),
        ...optional("email", input.context?.customer?.email ?? cart?.email ?? undefined),
        expire_min: options.expireMinutes,
        plugin: "medusa-payment-crypto",
        // A retry after a timeout gets the same invoice instead of an error (spec §4.1).
        return_existing: true,
      })
    } catch (error) {
      // A clear refusal (spec §7: 4xx) means the gateway holds no invoice with this new order
      // number: the reservation goes, so nothing is left that looks pending. An unknown outcome
      // (timeout, 5xx) keeps it: a retry asks for the same invoice (`return_existing`).
      if (isClearRefusal(error) && reservation.created) {
        await cryptoModule.releaseCryptoInvoiceReservation({ id: reservation.id, base })
      }
      throw toMedusaError(error, "Creating the crypto invoice")
    }

    await cryptoModule.updateCryptoInvoices({
      id: reservation.id,
      txn_id: reservation.txn_id ?? invoice.txn_id,
      active_txn_id: invoice.txn_id,
      invoice_url: invoice.invoice_url ?? null,
      psys_cid: invoice.psys_cid ?? psysCid ?? null,
      currency: invoice.currency ?? null,
      expected_amount: (invoice.invoice_total_sum ?? invoice.amount)?.toFixed() ?? null,
      gateway_status: invoice.status ?? "new",
      ...invoiceBooksAtCreation(invoice),
    })
    // The shopper's payment instructions (docs/notifications.md) and a store's own subscriber
    // (docs/events.md): the invoice as the gateway created it, with the address and expiry the
    // mirror does not keep. A failure to emit is logged, never thrown: the checkout goes on.
    const created = invoiceCreatedEvent({
      id: reservation.id,
      provider_id: session.provider_id,
      cart_id: cart?.id ?? null,
      psys_cid: invoice.psys_cid ?? psysCid ?? null,
      currency: invoice.currency ?? null,
      amount: (invoice.invoice_total_sum ?? invoice.amount)?.toFixed() ?? null,
      invoice_url: invoice.invoice_url ?? null,
      address: this.options_.whiteLabel ? (invoice.wallet_hash ?? null) : null,
      expire_utc: invoice.expire_utc,
      expireMinutes: options.expireMinutes,
      createdAt: new Date(),
    })
    await deps.eventBus?.emit({ name: CryptoEvents.INVOICE_CREATED, data: created }).catch((error: unknown) => {
      this.logger_.warn(`crypto invoice ${reservation.order_number}: could not emit ${CryptoEvents.INVOICE_CREATED}: ${failureReason(error)}`)
    })

    return {
      id: invoice.txn_id,
      status: "pending",
      data: this.sessionData(invoice, {
        sessionId,
        providerId: session.provider_id,
        orderNumber: reservation.order_number,
        sourceAmount,
        sourceCurrency,
      }),
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const decision = await this.assess(input.data, "Checking the crypto invoice", "stored")
    if (decision === undefined) {
      return { status: "error", data: input.data }
    }
    return { status: decision.session_status, data: this.withDecision(input.data, decision) }
  }

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    // Crypto money is settled when the invoice completes: nothing to capture at the gateway.
    const decision = await this.assess(input.data, "Capturing the crypto payment", "stored")
    if (decision === undefined || decision.kind !== "paid") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The crypto invoice ${text(input.data, "txn_id") ?? "(unknown)"} is not paid (gateway status: ${decision?.gateway_status ?? "unknown"}); it cannot be captured`
      )
    }
    return { data: this.withDecision(input.data, decision) }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    // Cancelled where the interface allows: the gateway has no call to cancel an invoice (spec §4),
    // so the gateway is told nothing. The session is released here, an unpaid invoice expires on its
    // own (spec §3), and money the shopper still sends to it is money on an abandoned invoice: never
    // shown as the cart's payment (docs/storefront.md), raised for the merchant to send back
    // (docs/attention.md, `abandoned_invoice_payment`).
    return { data: { ...(input.data ?? {}), released: true } }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return this.cancelPayment(input)
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const amount = sessionAmountToDecimalString(input.amount, "refund amount")
    // The admin's crypto refund sent the coins first and authorized exactly this amount
    // (refund-authorization.ts).
    const data = consumeCryptoRefundAuthorization(input.data, amount, input.context?.idempotency_key)
    if (data !== undefined) {
      return { data }
    }
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, PLAIN_REFUND_MESSAGE)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const decision = await this.assess(input.data, "Reading the crypto payment status", "gateway")
    if (decision === undefined) {
      return { status: "error", data: input.data }
    }
    return { status: decision.session_status, data: this.withDecision(input.data, decision) }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const decision = await this.assess(input.data, "Reading the crypto payment", "gateway")
    return { data: decision === undefined ? input.data : this.withDecision(input.data, decision) }
  }

  /**
   * Medusa calls this only from `paymentModule.updatePaymentSession`. A gateway invoice's amount
   * cannot change, so a new amount or currency gets a new invoice (a new `order_number`); the same
   * amount refreshes the status from the gateway.
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = input.data ?? {}
    // The session data holds what the gateway was sent: compared in the fiat's minor units.
    const sameAmount =
      text(data, "source_amount") === gatewaySourceAmount(input.amount, input.currency_code) &&
      text(data, "source_currency") === input.currency_code.toUpperCase()
    if (sameAmount && text(data, "txn_id") !== undefined) {
      return this.getPaymentStatus({ data, context: input.context })
    }
    const created = await this.initiatePayment({ amount: input.amount, currency_code: input.currency_code, data, context: input.context })
    return { status: created.status, data: created.data }
  }

  /**
   * The built-in `/hooks/payment/crypto_<id>` route is not how this plugin takes callbacks (it
   * acknowledges before verifying and drops multipart bodies, docs/architecture.md#callback-route).
   * Anything sent there is answered `not_supported`, and the log says which URL to configure.
   */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    this.logger_.warn(
      "crypto payment provider: a callback reached /hooks/payment/...; it is ignored. The gateway's callback URL is /hooks/crypto/<provider id>?json=true (set backendUrl and the plugin builds it)."
    )
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  private async findCart(deps: ProviderDeps, paymentCollectionId: string): Promise<{ id: string; email: string | null } | undefined> {
    const query = deps.query
    const { data: links } = await query.graph({
      entity: "cart_payment_collection",
      fields: ["cart_id"],
      filters: { payment_collection_id: paymentCollectionId },
    })
    const cartId: unknown = links[0]?.cart_id
    if (typeof cartId !== "string") {
      return undefined
    }
    const { data: carts } = await query.graph({ entity: "cart", fields: ["id", "email"], filters: { id: cartId } })
    const email: unknown = carts[0]?.email
    return { id: cartId, email: typeof email === "string" ? email : null }
  }

  /**
   * Where the session's invoice chain stands. `stored` (authorize, capture: Medusa's workflows run
   * them from the sync's apply step) takes the reading the sync's assess step kept on the invoice
   * row a moment ago under the invoice's lock, when it is fresh and was made under the same status
   * policy (`usableStoredReading`); otherwise, and always for `gateway`, the gateway is read. One
   * gateway read per paid callback on any instance (docs/architecture.md#one-gateway-read-per-callback).
   */
  private async assess(data: SessionData | undefined, action: string, source: "stored" | "gateway"): Promise<GatewayReading | undefined> {
    const txnId = text(data, "txn_id")
    if (txnId === undefined) {
      return undefined
    }
    try {
      const cryptoModule = this.deps_().cryptoModule
      // Sessions created before provider_id was kept in their data use the medusa-config options.
      const providerId = text(data, "provider_id")
      const options = providerId === undefined ? this.options_ : await readEffectiveOptionsCached(cryptoModule, providerId, this.options_)
      const rows = await cryptoModule.listCryptoInvoices(
        { txn_id: txnId },
        { select: ["id", "gateway_reading", "psys_cid", "currency", "source_amount", "source_currency"] }
      )
      // The invoice's own policy (order rules by coin and amount, docs/books.md#order-rules), built
      // as the sync's assess step built it: for a stored reading, from the coin it names.
      const facts = {
        psys_cid: rows[0]?.psys_cid ?? text(data, "psys_cid") ?? null,
        source_amount: rows[0]?.source_amount ?? text(data, "source_amount") ?? null,
        source_currency: rows[0]?.source_currency ?? text(data, "source_currency") ?? null,
      }
      if (source === "stored") {
        for (const row of rows) {
          const policy = statusPolicy(options, { ...facts, psys_cid: storedReadingCoin(row.gateway_reading) ?? row.psys_cid })
          const reading = usableStoredReading(row.gateway_reading, txnId, policy)
          if (reading !== undefined) return reading
        }
      }
      const root = { txn_id: txnId, order_number: text(data, "order_number") }
      // An invoice whose rest the shopper paid decides with its top-ups (docs/attention.md#paying-the-rest).
      const topUps = rows.length === 0 ? [] : await cryptoModule.listCryptoInvoices({ topup_of: rows[0].id }, { order: { created_at: "ASC" } })
      const paying = topUps.filter((row): row is typeof row & { txn_id: string } => row.txn_id !== null)
      const read = async (policy: StatusPolicy, reader: OperationReader): Promise<GatewayReading> => {
        if (paying.length > 0) {
          const group = await assessInvoiceGroup(
            reader,
            cryptoModule,
            { invoice_id: rows[0].id, ...root },
            paying.map((row) => ({ invoice_id: row.id, txn_id: row.txn_id, order_number: row.order_number, commission: topUpCommission(row.topup_details) })),
            policy
          )
          const { siblings_with_money: _siblings, ...reading } = group.root
          return reading
        }
        return gatewayReadingOf(await assessInvoiceChain(reader, cryptoModule, root, policy))
      }
      const known = { psys_cid: rows[0]?.psys_cid ?? null, currency: rows[0]?.currency ?? null }
      const coinOf = async (reading: GatewayReading) =>
        reading.psys_cid ?? (facts.source_currency === null ? null : await resolveCoinId(this.client_, cryptoModule, facts.source_currency, reading.currency, known))
      return (await assessUnderInvoicePolicy(options, facts, this.client_, read, coinOf)).reading
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  /** What the storefront may read from the session (never the key: session data reaches the storefront). */
  private sessionData(
    invoice: Invoice,
    context: { sessionId: string; providerId: string; orderNumber: string; sourceAmount: string; sourceCurrency: string }
  ): SessionData {
    const data: SessionData = {
      session_id: context.sessionId,
      provider_id: context.providerId,
      order_number: context.orderNumber,
      txn_id: invoice.txn_id,
      invoice_url: invoice.invoice_url ?? null,
      source_currency: context.sourceCurrency,
      source_amount: context.sourceAmount,
      status: invoice.status ?? "new",
    }
    if (this.options_.whiteLabel) {
      Object.assign(data, {
        psys_cid: invoice.psys_cid ?? null,
        currency: invoice.currency ?? null,
        amount: invoice.amount?.toFixed() ?? null,
        invoice_total_sum: invoice.invoice_total_sum?.toFixed() ?? null,
        commission_amount: shopperCommission(invoice.amount, invoice.invoice_total_sum),
        // Fiat per coin at creation (spec §2.1 `source_rate`), as the gateway's decimal string: the
        // storefront's "1 LTC = 76.47 EUR" line (docs/storefront.md); null when absent or not above zero.
        source_rate: invoice.source_rate !== undefined && invoice.source_rate !== null && invoice.source_rate.gt(0) ? invoice.source_rate.toFixed() : null,
        pending_amount: invoice.pending_amount?.toFixed() ?? null,
        wallet_hash: invoice.wallet_hash ?? null,
        qr_code: invoice.qr_code ?? null,
        expire_utc: invoice.expire_utc ?? null,
        expected_confirmations: invoice.expected_confirmations ?? null,
      })
    }
    return data
  }

  private withDecision(data: SessionData | undefined, fields: GatewayReading): SessionData {
    return {
      ...(data ?? {}),
      status: fields.gateway_status,
      active_txn_id: fields.active_txn_id,
      received_amount: fields.received_amount,
      overpaid_amount: fields.overpaid_amount,
      refund_due_amount: fields.refund_due_amount,
    }
  }
}

/**
 * The fiat amount the gateway is sent (`source_amount`, spec §4.1): the session amount rounded
 * half-up to the currency's minor units (`fiatToMinorUnits`). Medusa authorizes and captures the
 * exact session amount; this is only what the invoice is made for.
 */
function gatewaySourceAmount(amount: InitiatePaymentInput["amount"], currencyCode: string): string {
  const exactAmount = sessionAmountToDecimalString(amount, "amount")
  const rounded = fiatToMinorUnits(exactAmount, currencyCode)
  if (rounded.isZero()) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `amount must be at least one minor unit of ${currencyCode.toUpperCase()}, got ${exactAmount}`)
  }
  return rounded.toFixed()
}

/**
 * The coin for a new invoice: the storefront's choice (`data.psys_cid`), else the default. Never a
 * coin the shop disabled at the gateway (spec §2.4 `hidden`) or one the gateway does not list,
 * whatever the accepted-coin list says; never one outside a non-empty accepted-coin list; never
 * one whose minimum (spec §2.4 `min_sum_in`) the cart total does not reach. Without a coin the
 * gateway picks the shop's (spec §4.1).
 */
function chooseCoin(
  requested: unknown,
  options: ResolvedCryptoOptions,
  coins: readonly CachedCurrency[],
  total: { amount: string; currency: string }
): string | undefined {
  if (requested !== undefined && requested !== null && requested !== "" && (typeof requested !== "string" || !/^[A-Za-z0-9_.-]{1,32}$/.test(requested))) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'data.psys_cid must be a coin ID such as "BTC" (see GET /store/crypto/currencies)')
  }
  const fromShopper = typeof requested === "string" && requested !== ""
  const psysCid = fromShopper ? requested : options.defaultCurrency
  if (psysCid === undefined) {
    return undefined
  }
  const field = fromShopper ? "data.psys_cid" : "the store's default coin (defaultCurrency)"
  const offered = offeredCoins(coins, options.allowedCurrencies)
  const coin = offered.find((candidate) => candidate.psys_cid === psysCid)
  if (coin === undefined) {
    const accepted = options.allowedCurrencies.length > 0 && !options.allowedCurrencies.includes(psysCid)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      accepted
        ? `${field} "${psysCid}" is not accepted by this store; choose one of ${options.allowedCurrencies.join(", ")}`
        : `${field} "${psysCid}" is not offered by this store; choose one of ${offered.map((candidate) => candidate.psys_cid).join(", ") || "(none)"} (see GET /store/crypto/currencies)`
    )
  }
  const minimum = belowMinimum(total.amount, total.currency, coin)
  if (minimum !== undefined) {
    const code = coin.currency ?? coin.psys_cid
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `${field} "${psysCid}": the cart total ${total.amount} ${total.currency} is below the gateway's minimum of ${minimum.minimum} ${code} (${minimum.minimum_fiat} ${total.currency}); choose another coin (see GET /store/crypto/currencies)`
    )
  }
  return psysCid
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, string>>)
}

export default CryptoPaymentProviderService
