import { Modules } from "@medusajs/framework/utils"
import { networkOf } from "../coins"
import { exact } from "../money"
import { present, renderTemplate, type ResolvedShopperMessage, type ShopperMessageContent, type ShopperMessageData, type ShopperMessageKind } from "../config/message-templates"

/**
 * The shopper's messages filled in (docs/notifications.md): each message's data from the facts of
 * its invoice, rendered with the merchant's resolved templates (src/core/config/message-templates.ts),
 * and how it is keyed and sent. Pure: the step that sends them is
 * `src/workflows/steps/notify-crypto-shopper.ts`.
 */

/** A message ready for `createNotifications`: its template, data, and rendered content when it has one. */
export interface RenderedShopperMessage {
  template: string
  data: Record<string, string | null>
  content?: ShopperMessageContent
}

/** Renders `message` with its data (built by `instructionsData`, `receivedData` or `underpaidData`). */
export function renderShopperMessage(message: ResolvedShopperMessage, data: Readonly<Record<string, string | null>>): RenderedShopperMessage {
  const values: Record<string, string | null> = { ...data }
  if (message.content === null) {
    return { template: message.template, data: values }
  }
  return {
    template: message.template,
    data: values,
    content: {
      subject: renderTemplate(message.content.subject, values, "text").replace(/\s+/g, " ").trim(),
      text: renderTemplate(message.content.text, values, "text"),
      html: renderTemplate(message.content.html, values, "html"),
    },
  }
}

/** "0.0123 LTC"; "12.5 USDT (USDT_TRX)" when the coin's code does not name its network (spec §2.4). */
export function amountWithCoin(amount: string | null, currency: string | null, psysCid: string | null): string | null {
  if (amount === null) return null
  const code = currency ?? psysCid
  if (code === null) return null
  const text = exact(amount).toFixed()
  return psysCid !== null && psysCid !== code ? `${text} ${code} (${psysCid})` : `${text} ${code}`
}

/** A moment for a message: "2026-11-26 21:34 UTC" (no locale: the same on every instance). */
export function utcText(moment: Date | null): string | null {
  if (moment === null || Number.isNaN(moment.getTime())) return null
  return `${moment.toISOString().slice(0, 16).replace("T", " ")} UTC`
}

/** The invoice as the gateway created it, for the payment instructions. */
export interface InstructionsFacts {
  psys_cid: string | null
  currency: string | null
  /** What to send, commission included (spec §2.1 `invoice_total_sum`), in that coin. */
  amount: string | null
  address: string | null
  expires_at: string | null
  invoice_url: string | null
  return_url: string | null
}

export function instructionsData(facts: InstructionsFacts): ShopperMessageData<"paymentInstructions"> {
  const expires = facts.expires_at === null ? null : new Date(facts.expires_at)
  return {
    amount: facts.amount === null ? null : exact(facts.amount).toFixed(),
    coin: facts.currency ?? facts.psys_cid,
    coin_id: facts.psys_cid,
    amount_with_coin: amountWithCoin(facts.amount, facts.currency, facts.psys_cid),
    address: facts.address,
    expires_at: expires === null || Number.isNaN(expires.getTime()) ? null : expires.toISOString(),
    expires_at_text: utcText(expires),
    invoice_url: facts.invoice_url,
    return_url: facts.return_url,
  }
}

export interface ReceivedFacts {
  psys_cid: string | null
  currency: string | null
  /** What the invoice and its top-ups received together, in that coin. */
  received: string | null
  order_id: string | null
  order_display_id: string | null
  return_url: string | null
}

export function receivedData(facts: ReceivedFacts): ShopperMessageData<"paymentReceived"> {
  return {
    amount: facts.received === null ? null : exact(facts.received).toFixed(),
    coin: facts.currency ?? facts.psys_cid,
    coin_id: facts.psys_cid,
    amount_with_coin: amountWithCoin(facts.received, facts.currency, facts.psys_cid),
    order_id: facts.order_id,
    order_display_id: facts.order_display_id,
    return_url: facts.return_url,
  }
}

export interface UnderpaidFacts {
  psys_cid: string
  currency: string | null
  received: string
  expected: string
  pay_rest_until: Date | null
  return_url: string | null
}

/** Received X of Y, Y − X still due: exact decimals, each with its coin. */
export function underpaidData(facts: UnderpaidFacts): ShopperMessageData<"underpaid"> {
  const due = exact(facts.expected).minus(facts.received).toFixed()
  return {
    received_amount: exact(facts.received).toFixed(),
    expected_amount: exact(facts.expected).toFixed(),
    due_amount: due,
    coin: facts.currency ?? facts.psys_cid,
    coin_id: facts.psys_cid,
    received_with_coin: amountWithCoin(facts.received, facts.currency, facts.psys_cid),
    expected_with_coin: amountWithCoin(facts.expected, facts.currency, facts.psys_cid),
    due_with_coin: amountWithCoin(due, facts.currency, facts.psys_cid),
    pay_rest_until: facts.pay_rest_until === null ? null : facts.pay_rest_until.toISOString(),
    pay_rest_until_text: utcText(facts.pay_rest_until),
    return_url: facts.return_url,
  }
}

export interface RefundClaimableFacts {
  psys_cid: string
  amount: string
  order_display_id: string | null
  claim_url: string
  expires_at: string
}

/** A refund the shopper claims: the amount with its coin and network, the link, until when it works. */
export function refundClaimableData(facts: RefundClaimableFacts): ShopperMessageData<"refundClaimable"> {
  const expires = new Date(facts.expires_at)
  return {
    amount: exact(facts.amount).toFixed(),
    coin: facts.psys_cid,
    coin_id: facts.psys_cid,
    amount_with_coin: amountWithCoin(facts.amount, null, facts.psys_cid),
    network: networkOf(facts.psys_cid),
    order_display_id: facts.order_display_id,
    claim_url: facts.claim_url,
    expires_at: Number.isNaN(expires.getTime()) ? null : expires.toISOString(),
    expires_at_text: utcText(expires),
  }
}

/** The idempotency key of one message about one invoice: the Notification Module sends a key once. */
export function shopperMessageKey(kind: ShopperMessageKind, invoiceId: string): string {
  return `medusa-payment-crypto:${kind}:${invoiceId}`
}

/** The channel the messages go to. */
export const SHOPPER_MESSAGE_CHANNEL = "email"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Why shopper messages cannot be sent in this store, or null when they can: the Notification
 * Module is not registered (or disabled), or none of its providers takes the `email` channel.
 * Read from `medusa-config` as the Notification Module's loader reads it: a provider whose
 * `options.channels` holds "email", or Medusa Cloud's e-mail (its `cloud` options complete). Medusa's
 * default configuration registers the module with a local provider for the admin's `feed` only.
 */
export function shopperMessagesUnavailable(configModule: { modules?: Record<string, unknown> } | undefined): string | null {
  const declaration = configModule?.modules?.[Modules.NOTIFICATION]
  if (declaration === undefined || declaration === false || (isRecord(declaration) && declaration.disable === true)) {
    return "no notification module is registered"
  }
  const options = isRecord(declaration) && isRecord(declaration.options) ? declaration.options : {}
  const providers = Array.isArray(options.providers) ? options.providers : []
  const email = providers.some((provider) => isRecord(provider) && isRecord(provider.options) && Array.isArray(provider.options.channels) && provider.options.channels.includes(SHOPPER_MESSAGE_CHANNEL))
  const cloud = isRecord(options.cloud) ? options.cloud : {}
  const cloudEmail = present(stringOf(cloud.api_key)) && present(stringOf(cloud.endpoint)) && (present(stringOf(cloud.environment_handle)) || present(stringOf(cloud.sandbox_handle)))
  return email || cloudEmail ? null : 'no notification provider is registered for the "email" channel'
}

const stringOf = (value: unknown): string | null => (typeof value === "string" ? value : null)
