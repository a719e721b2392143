import type { ConfigModule, CreateNotificationDTO, FilterableNotificationProps, INotificationModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, NotificationStatus } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CryptoEvents, type CryptoEventName, type CryptoInvoiceCreatedEvent, type CryptoRefundClaimableEvent } from "../../core/events"
import { returnUrl, type ResolvedCryptoOptions } from "../../core/config/options"
import { GatewayStatus, knownStatusOf } from "../../core/payment/payment-state"
import { resolveCryptoProviderEntry } from "../../core/config/provider-entry"
import {
  instructionsData,
  receivedData,
  refundClaimableData,
  renderShopperMessage,
  SHOPPER_MESSAGE_CHANNEL,
  shopperMessageKey,
  shopperMessagesUnavailable,
  underpaidData,
  type RenderedShopperMessage,
} from "../../core/notify/shopper-messages"
import type { ShopperMessageKind } from "../../core/config/message-templates"
import { groupReceived, topUpPlan } from "../../core/payment/top-up"
import { resolveCryptoModule } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"
import { cartOrderCanceled } from "./open-crypto-top-up"

/** Which message, about what: each names the provider entry whose options decide it. */
export type NotifyCryptoShopperInput =
  /** `crypto.invoice.created`: the invoice as the gateway created it. */
  | { kind: "paymentInstructions"; provider_id: string; invoice: CryptoInvoiceCreatedEvent }
  /** `crypto.payment.received`: the invoice mirror (`cinv_…`) whose payment was captured. */
  | { kind: "paymentReceived"; provider_id: string; invoice_id: string }
  /** `crypto.payment.underpaid`: the attention item (`catt_…`) of an invoice that ended short. */
  | { kind: "underpaid"; provider_id: string; attention_id: string }
  /** `crypto.refund.claimable`: a refund the shopper claims, with its link (docs/money-out.md#refunds-the-shopper-claims). */
  | { kind: "refundClaimable"; provider_id: string; claim: CryptoRefundClaimableEvent }

export interface NotifiedCryptoShopper {
  kind: ShopperMessageKind
  /**
   * `sent`: created in the Notification Module now; `already_sent`: the Notification Module holds
   * this message's key (sent by an earlier delivery or another instance); `off`: the merchant turned
   * the message off; `unavailable`: the store sends no e-mail (logged once); `not_due`: the fact no
   * longer holds (the invoice moved on, the rest can no longer be paid); `no_email`: no address.
   */
  outcome: "sent" | "already_sent" | "off" | "unavailable" | "not_due" | "no_email"
  idempotency_key: string | null
}

/** The part of the Notification Module this step uses. */
export interface ShopperNotifications {
  /** Undefined when the module sent nothing because it holds the key already (Medusa 2.21: an empty result). */
  createNotifications(data: CreateNotificationDTO): Promise<unknown>
  /** By idempotency key: the module filters by any column of its table, its filter type (Medusa 2.21) lists fewer. */
  listNotifications(filters: FilterableNotificationProps & { idempotency_key: string }, config: { select: string[]; take: number }): Promise<Array<{ status?: string | null }>>
}

/** The part of Query this step reads: a cart's e-mail, an order's e-mail and number, a cart's order. */
export interface ShopperQuery {
  graph(input: { entity: string; fields: string[]; filters: Record<string, unknown> }): Promise<{ data: Array<Record<string, unknown> | undefined> }>
}

/** What sending a message needs; built from the step's container (`notifyDepsOf`), fakes in unit tests. */
export interface NotifyShopperDeps {
  cryptoModule: Pick<
    CryptoModuleService,
    "retrieveCryptoInvoice" | "listCryptoInvoices" | "retrieveCryptoAttention" | "listCryptoAttentions" | "listCryptoWithdrawals" | "listCryptoRefundClaims"
  >
  query: ShopperQuery
  /** The provider entry's options from medusa-config (`shopperMessages` is not an admin setting). */
  optionsOf(providerId: string): ResolvedCryptoOptions
  /** The Notification Module, or why this store cannot send e-mail. */
  notifications: ShopperNotifications | { unavailable: string }
  logger: Pick<Logger, "info">
  now(): Date
}

export function notifyDepsOf(container: MedusaContainer): NotifyShopperDeps {
  const unavailable = shopperMessagesUnavailable(container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE))
  const module = unavailable === null ? container.resolve<INotificationModuleService | undefined>(Modules.NOTIFICATION, { allowUnregistered: true }) : undefined
  return {
    cryptoModule: resolveCryptoModule(container),
    query: container.resolve(ContainerRegistrationKeys.QUERY),
    optionsOf: (providerId) => resolveCryptoProviderEntry(container, providerId).options,
    notifications: module ?? { unavailable: unavailable ?? "no notification module is registered" },
    logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
    now: () => new Date(),
  }
}

/** The event each message answers, kept on the notification (`trigger_type`). */
const TRIGGER: Record<ShopperMessageKind, CryptoEventName> = {
  paymentInstructions: CryptoEvents.INVOICE_CREATED,
  paymentReceived: CryptoEvents.PAYMENT_RECEIVED,
  underpaid: CryptoEvents.PAYMENT_UNDERPAID,
  refundClaimable: CryptoEvents.REFUND_CLAIMABLE,
}

/**
 * The loggers that were told this store sends no shopper messages: the line is written once per
 * process (per application logger), not per message. Nothing here is data another instance needs.
 */
const toldUnavailable = new WeakSet<object>()

/** A message ready to send, or why it is not sent. */
type Prepared = { to: string; message: RenderedShopperMessage; key: string; resource: { id: string; type: "cart" | "order" } } | "not_due" | "no_email"

/**
 * Sends one shopper message (docs/notifications.md) at most once per invoice and kind: the
 * Notification Module's `idempotency_key` (unique in its table) lets one creation through, on any
 * instance, however often the event is delivered; a second creation with the key sends nothing.
 * Reads the current state first, so a message whose fact no longer holds is not sent.
 */
export async function notifyCryptoShopper(input: NotifyCryptoShopperInput, deps: NotifyShopperDeps): Promise<NotifiedCryptoShopper> {
  const options = deps.optionsOf(input.provider_id)
  const message = options.shopperMessages[input.kind]
  if (message === null) {
    return { kind: input.kind, outcome: "off", idempotency_key: null }
  }
  const notifications = deps.notifications
  if ("unavailable" in notifications) {
    if (!toldUnavailable.has(deps.logger)) {
      toldUnavailable.add(deps.logger)
      deps.logger.info(`crypto payments: shopper messages are off because ${notifications.unavailable} (docs/notifications.md)`)
    }
    return { kind: input.kind, outcome: "unavailable", idempotency_key: null }
  }
  const prepared = await prepare(input, options, message, deps)
  if (prepared === "not_due" || prepared === "no_email") {
    return { kind: input.kind, outcome: prepared, idempotency_key: null }
  }
  const { to, key, resource } = prepared
  const notification: CreateNotificationDTO = {
    to,
    channel: SHOPPER_MESSAGE_CHANNEL,
    template: prepared.message.template,
    data: prepared.message.data,
    ...(prepared.message.content === undefined ? {} : { content: prepared.message.content }),
    trigger_type: TRIGGER[input.kind],
    resource_id: resource.id,
    resource_type: resource.type,
    idempotency_key: key,
  }
  return { kind: input.kind, outcome: await sendOnce(notifications, notification, key), idempotency_key: key }
}

/** Creates one notification once under its idempotency key: `already_sent` when the module holds the key (another delivery, another instance). */
export async function sendOnce(notifications: ShopperNotifications, notification: CreateNotificationDTO, key: string): Promise<"sent" | "already_sent"> {
  try {
    const created = await notifications.createNotifications(notification)
    return created === undefined || created === null ? "already_sent" : "sent"
  } catch (error) {
    // Two instances at once: the key's unique index refuses the second creation, and the first
    // sends. A failed send (the provider refused) leaves the key `failure`: thrown, so a retry sends it.
    const byKey: FilterableNotificationProps & { idempotency_key: string } = { idempotency_key: key }
    const [existing] = await notifications.listNotifications(byKey, { select: ["id", "status"], take: 1 })
    if (existing !== undefined && existing.status !== NotificationStatus.FAILURE) {
      return "already_sent"
    }
    throw error
  }
}

async function prepare(
  input: NotifyCryptoShopperInput,
  options: ResolvedCryptoOptions,
  message: NonNullable<ResolvedCryptoOptions["shopperMessages"][ShopperMessageKind]>,
  deps: NotifyShopperDeps
): Promise<Prepared> {
  const { cryptoModule, query } = deps
  switch (input.kind) {
    case "paymentInstructions": {
      const invoice = await cryptoModule.retrieveCryptoInvoice(input.invoice.id)
      // Only while nothing was paid and the invoice still pays its session: instructions for an
      // invoice a newer one replaced, or already paid, would ask for money twice.
      const open =
        invoice.superseded_by === null &&
        invoice.topup_of === null &&
        invoice.session_status === "pending" &&
        (invoice.gateway_status === null || knownStatusOf(invoice.gateway_status) === GatewayStatus.New)
      if (!open) return "not_due"
      const to = await cartEmail(query, invoice.cart_id)
      if (to === null || invoice.cart_id === null) return "no_email"
      const data = instructionsData({ ...input.invoice, return_url: returnUrl(options, "fail", invoice.cart_id) ?? null })
      return { to, message: renderShopperMessage(message, data), key: shopperMessageKey(input.kind, invoice.id), resource: { id: invoice.cart_id, type: "cart" } }
    }
    case "paymentReceived": {
      const paid = await cryptoModule.retrieveCryptoInvoice(input.invoice_id)
      // A top-up's money completes the invoice whose rest it paid (docs/attention.md#paying-the-rest).
      const root = paid.topup_of === null ? paid : await cryptoModule.retrieveCryptoInvoice(paid.topup_of)
      if (root.session_status !== "captured") return "not_due"
      const topUps = await cryptoModule.listCryptoInvoices({ topup_of: root.id })
      const order = root.order_id === null ? undefined : (await query.graph({ entity: "order", fields: ["id", "display_id", "email"], filters: { id: root.order_id } })).data[0]
      const to = textOf(order?.email) ?? (await cartEmail(query, root.cart_id))
      if (to === null) return "no_email"
      const data = receivedData({
        psys_cid: root.psys_cid,
        currency: root.currency,
        received: groupReceived(root, topUps).toFixed(),
        order_id: root.order_id,
        order_display_id: order?.display_id === undefined || order.display_id === null ? null : String(order.display_id),
        return_url: returnUrl(options, "success", root.cart_id ?? undefined) ?? null,
      })
      const resource = root.order_id !== null ? { id: root.order_id, type: "order" as const } : { id: root.cart_id ?? root.id, type: "cart" as const }
      return { to, message: renderShopperMessage(message, data), key: shopperMessageKey(input.kind, root.id), resource }
    }
    case "refundClaimable": {
      // Only while the claim still waits for the shopper's address (not revoked, claimed or expired).
      const [claim] = await cryptoModule.listCryptoRefundClaims({ id: input.claim.id }, { take: 1 })
      if (claim === undefined || claim.status !== "waiting" || new Date(claim.expires_at).getTime() <= deps.now().getTime()) return "not_due"
      const order = (await query.graph({ entity: "order", fields: ["id", "display_id", "email"], filters: { id: claim.order_id } })).data[0]
      const to = textOf(order?.email)
      if (to === null) return "no_email"
      const data = refundClaimableData({
        psys_cid: claim.psys_cid,
        amount: claim.amount,
        order_display_id: order?.display_id === undefined || order.display_id === null ? null : String(order.display_id),
        claim_url: input.claim.link,
        expires_at: input.claim.expires_at,
      })
      return { to, message: renderShopperMessage(message, data), key: shopperMessageKey(input.kind, claim.id), resource: { id: claim.order_id, type: "order" } }
    }
    case "underpaid": {
      const item = await cryptoModule.retrieveCryptoAttention(input.attention_id)
      const evidence = item.evidence as Record<string, unknown> | null
      // Within the tolerance the order is kept and nothing is owed: no message (docs/events.md).
      if (item.kind !== "underpaid" || evidence?.within_tolerance !== false) return "not_due"
      const ended = await cryptoModule.retrieveCryptoInvoice(item.subject_id)
      const root = ended.topup_of === null ? ended : await cryptoModule.retrieveCryptoInvoice(ended.topup_of)
      const topUps = await cryptoModule.listCryptoInvoices({ topup_of: root.id }, { order: { created_at: "ASC" } })
      const [open, sent, orderCanceled] = await Promise.all([
        cryptoModule.listCryptoAttentions({ kind: "underpaid", subject_id: root.id, status: "open" }, { take: 1 }),
        cryptoModule.listCryptoWithdrawals({ invoice_id: [root.id, ...topUps.map((row) => row.id)] }, { take: 1 }),
        cartOrderCanceled(query, root.cart_id),
      ])
      const restUntil = root.rest_until === null ? null : new Date(root.rest_until)
      // The one rule of whether the rest can still be paid, as the top-up route decides it.
      const plan = topUpPlan(root, topUps, {
        underpaidItemOpen: open.length > 0,
        moneySentBack: sent.length > 0,
        orderCanceled,
        restExpired: restUntil !== null && restUntil.getTime() <= deps.now().getTime(),
      })
      if (plan.kind !== "new") return "not_due"
      const to = await cartEmail(query, root.cart_id)
      if (to === null) return "no_email"
      const data = underpaidData({
        psys_cid: plan.psys_cid,
        currency: plan.currency,
        received: plan.received,
        expected: plan.expected,
        pay_rest_until: restUntil,
        return_url: returnUrl(options, "fail", root.cart_id ?? undefined) ?? null,
      })
      const resource = root.order_id !== null ? { id: root.order_id, type: "order" as const } : { id: root.cart_id ?? root.id, type: "cart" as const }
      return { to, message: renderShopperMessage(message, data), key: shopperMessageKey(input.kind, ended.id), resource }
    }
  }
}

const textOf = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

async function cartEmail(query: ShopperQuery, cartId: string | null): Promise<string | null> {
  if (cartId === null) return null
  const { data } = await query.graph({ entity: "cart", fields: ["id", "email"], filters: { id: cartId } })
  return textOf(data[0]?.email)
}

export const notifyCryptoShopperStepId = "notify-crypto-shopper"

/**
 * Sends one shopper message. No compensation (a message cannot be taken back); forward-only and
 * idempotent: the Notification Module's idempotency key sends it once per invoice and kind.
 */
export const notifyCryptoShopperStep = createStep(notifyCryptoShopperStepId, async (input: NotifyCryptoShopperInput, { container }) => {
  return new StepResponse(await notifyCryptoShopper(input, notifyDepsOf(container)))
})
