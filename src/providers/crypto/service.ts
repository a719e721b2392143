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
import { allowedPsysCids, chooseCoin, listCurrencies } from "../../core/payment/currency-cache"
import { toMedusaError } from "../../core/errors"
import { sessionAmountToDecimalString } from "../../core/money"
import { isClearRefusal } from "../../core/money-out/withdrawal"
import { optionWarnings, parseCryptoOptions, type CryptoProviderOptions, type ResolvedCryptoOptions } from "../../core/config/options"
import { gatewayClientOf, CRYPTO_PROVIDER_IDENTIFIER, invoiceLinks } from "../../core/config/provider-entry"
import { readEffectiveOptionsCached } from "../../core/config/settings"
import { recordCreatedInvoice, releaseCryptoInvoiceReservation, reserveCryptoInvoice } from "../../core/payment/invoice-reservation"
import { medusaSessionStatusOf, type GatewayReading } from "../../core/payment/invoice-chain"
import { gatewaySourceAmount, readSessionInvoice, sessionDataOf, sessionText as text, withReading, type SessionData } from "../../core/payment/session"
import { applicationDeps, sessionOfCart, type ProviderDepsFactory, type ProviderGateway } from "./deps"
import { invoiceText } from "./invoice-text"
import { consumeCryptoRefundAuthorization, PLAIN_REFUND_MESSAGE } from "../../core/money-out/refund-authorization"


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
    this.client_ = seam.client ?? gatewayClientOf(this.options_)
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
    // The session with its cart or order, their items and the store's name (Query, deps.ts) and the
    // gateway's coins in this fiat (cached list, spec §4.8) at once; then the settings of the
    // session's provider entry (the merchant's admin settings apply from the next checkout on; read
    // through Medusa's cache module, docs/architecture.md#effective-settings). A fiat the gateway
    // does not take is refused before anything is created, and the coin is checked against the
    // shop's settings, maintenance and the gateway's minimum.
    const [session, coins] = await Promise.all([sessionOfCart(deps.query, sessionId), listCurrencies(this.client_, cryptoModule, sourceCurrency)])
    const cart = session.cart
    const options = await readEffectiveOptionsCached(cryptoModule, deps.settingsCache, session.provider_id, this.options_)
    const total = { amount: sourceAmount, currency: sourceCurrency }
    const psysCid = chooseCoin(data.psys_cid, options, coins, total)
    // The coins the payer may choose (spec §4.1 `allowed_psys_cids`): only those the shop offers
    // that can take this total now; none left is refused here, with why.
    const allowed = allowedPsysCids(coins, options, total)

    // The order number is reserved in our module before the gateway is asked (one transaction
    // under a lock on the cart, src/core/payment/invoice-reservation.ts).
    const base = cart?.id ?? session.payment_collection_id
    const reservation = await reserveCryptoInvoice(cryptoModule, {
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
        // The store's words on the gateway's dashboard and page; the order number stays ours.
        ...invoiceText(session, reservation.order_number),
        source_currency: sourceCurrency,
        source_amount: sourceAmount,
        ...(psysCid !== undefined ? { currency: psysCid } : {}),
        ...(allowed.length > 0 ? { allowed_psys_cids: allowed } : {}),
        ...invoiceLinks(this.options_, session.provider_id, cart?.id, input.context?.customer?.email ?? cart?.email ?? session.order?.email),
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
        await releaseCryptoInvoiceReservation(cryptoModule, { id: reservation.id, base })
      }
      throw toMedusaError(error, "Creating the crypto invoice")
    }

    await recordCreatedInvoice({ store: cryptoModule, eventBus: deps.eventBus, logger: this.logger_ }, reservation, invoice, {
      provider_id: session.provider_id,
      cart_id: cart?.id ?? null,
      psys_cid: psysCid ?? null,
      whiteLabel: this.options_.whiteLabel,
      expireMinutes: options.expireMinutes,
    })

    return {
      id: invoice.txn_id,
      status: "pending",
      data: sessionDataOf(
        invoice,
        { sessionId, providerId: session.provider_id, orderNumber: reservation.order_number, sourceAmount, sourceCurrency },
        this.options_.whiteLabel
      ),
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.sessionStatus(input.data, "Checking the crypto invoice", "stored")
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
    return { data: withReading(input.data, decision) }
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
    return this.sessionStatus(input.data, "Reading the crypto payment status", "gateway")
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const decision = await this.assess(input.data, "Reading the crypto payment", "gateway")
    return { data: decision === undefined ? input.data : withReading(input.data, decision) }
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

  /** The session's status and data from where its invoice stands; `error` for a session with no invoice. */
  private async sessionStatus(data: SessionData | undefined, action: string, source: "stored" | "gateway"): Promise<AuthorizePaymentOutput & GetPaymentStatusOutput> {
    const decision = await this.assess(data, action, source)
    return decision === undefined ? { status: "error", data } : { status: medusaSessionStatusOf(decision), data: withReading(data, decision) }
  }

  /** Where the session's invoice stands (`readSessionInvoice`), under the options in effect for its provider entry. */
  private async assess(data: SessionData | undefined, action: string, source: "stored" | "gateway"): Promise<GatewayReading | undefined> {
    try {
      const deps = this.deps_()
      // Sessions created before provider_id was kept in their data use the medusa-config options.
      const providerId = text(data, "provider_id")
      const options = providerId === undefined ? this.options_ : await readEffectiveOptionsCached(deps.cryptoModule, deps.settingsCache, providerId, this.options_)
      return await readSessionInvoice({ store: deps.cryptoModule, client: this.client_, options }, data, source)
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }
}

export default CryptoPaymentProviderService
