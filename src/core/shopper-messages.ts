import { Modules } from "@medusajs/framework/utils"
import { networkOf } from "./network"
import { exact } from "./money"

/**
 * The messages the plugin sends the shopper through Medusa's Notification Module
 * (docs/notifications.md): what each one says, its named placeholders, the default English
 * template set, and the rendering. Pure: the step that sends them is
 * `src/workflows/steps/notify-crypto-shopper.ts`.
 *
 * A message reaches the store's notification provider as Medusa's own notifications do: a
 * `template` name the provider may map to its own template (SendGrid's dynamic templates, a
 * React Email component), the placeholders as `data`, and, unless the merchant turns it off, the
 * rendered `content` (subject, text, html) for providers that send what they are given.
 */

/** The messages, by the name of their option (`shopperMessages.<kind>`). */
export const SHOPPER_MESSAGE_KINDS = ["paymentInstructions", "paymentReceived", "underpaid", "refundClaimable"] as const
export type ShopperMessageKind = (typeof SHOPPER_MESSAGE_KINDS)[number]

/** The Notification Module `template` each message is sent with unless the merchant names another. */
export const DEFAULT_SHOPPER_TEMPLATES: Record<ShopperMessageKind, string> = {
  paymentInstructions: "crypto-payment-instructions",
  paymentReceived: "crypto-payment-received",
  underpaid: "crypto-payment-underpaid",
  refundClaimable: "crypto-refund-claimable",
}

/** Every placeholder of each message: the keys of its `data`, each a string or null. */
export const SHOPPER_MESSAGE_PLACEHOLDERS = {
  paymentInstructions: ["amount", "coin", "coin_id", "amount_with_coin", "address", "expires_at", "expires_at_text", "invoice_url", "return_url"],
  paymentReceived: ["amount", "coin", "coin_id", "amount_with_coin", "order_id", "order_display_id", "return_url"],
  underpaid: [
    "received_amount",
    "expected_amount",
    "due_amount",
    "coin",
    "coin_id",
    "received_with_coin",
    "expected_with_coin",
    "due_with_coin",
    "pay_rest_until",
    "pay_rest_until_text",
    "return_url",
  ],
  refundClaimable: ["amount", "coin", "coin_id", "amount_with_coin", "network", "order_display_id", "claim_url", "expires_at", "expires_at_text"],
} as const satisfies Record<ShopperMessageKind, readonly string[]>

export type ShopperMessageData<Kind extends ShopperMessageKind> = { [Name in (typeof SHOPPER_MESSAGE_PLACEHOLDERS)[Kind][number]]: string | null }

export interface ShopperMessageContent {
  subject: string
  text: string
  html: string
}

/**
 * The default template set. `{{name}}` is a placeholder (HTML-escaped in `html`);
 * `{{#name}}…{{/name}}` is kept only when `name` has a value, `{{^name}}…{{/name}}` only when it
 * has none (a subset of Mustache), so a missing value never shows as "undefined" or "null".
 */
export const DEFAULT_SHOPPER_MESSAGES: Record<ShopperMessageKind, ShopperMessageContent> = {
  paymentInstructions: {
    subject: "{{#amount_with_coin}}Send {{amount_with_coin}} to complete your order{{/amount_with_coin}}{{^amount_with_coin}}Complete your order with crypto{{/amount_with_coin}}",
    text: [
      "Thank you for your order. It is placed as soon as your crypto payment arrives.",
      "",
      "{{#amount_with_coin}}Amount to send: {{amount_with_coin}} (the full amount, any commission included).",
      "{{/amount_with_coin}}{{^amount_with_coin}}Choose your coin on the payment page; it shows the amount to send.",
      "{{/amount_with_coin}}{{#address}}Address: {{address}}",
      "{{/address}}{{#expires_at_text}}Pay before: {{expires_at_text}}",
      "{{/expires_at_text}}{{#invoice_url}}",
      "Payment page: {{invoice_url}}",
      "{{/invoice_url}}{{#return_url}}Back to the shop: {{return_url}}",
      "{{/return_url}}",
    ].join("\n"),
    html: [
      "<p>Thank you for your order. It is placed as soon as your crypto payment arrives.</p>",
      "{{#amount_with_coin}}<p>Amount to send: <strong>{{amount_with_coin}}</strong> (the full amount, any commission included).</p>{{/amount_with_coin}}",
      "{{^amount_with_coin}}<p>Choose your coin on the payment page; it shows the amount to send.</p>{{/amount_with_coin}}",
      "{{#address}}<p>Address: <code>{{address}}</code></p>{{/address}}",
      "{{#expires_at_text}}<p>Pay before: {{expires_at_text}}</p>{{/expires_at_text}}",
      '{{#invoice_url}}<p><a href="{{invoice_url}}">Open the payment page</a></p>{{/invoice_url}}',
      '{{#return_url}}<p><a href="{{return_url}}">Back to the shop</a></p>{{/return_url}}',
    ].join("\n"),
  },
  paymentReceived: {
    subject: "Payment received{{#order_display_id}} for order #{{order_display_id}}{{/order_display_id}}",
    text: [
      "We received your crypto payment{{#amount_with_coin}} of {{amount_with_coin}}{{/amount_with_coin}}{{#order_display_id}} for order #{{order_display_id}}{{/order_display_id}}.",
      "Thank you. Your order is confirmed.",
      "{{#return_url}}",
      "Your order: {{return_url}}",
      "{{/return_url}}",
    ].join("\n"),
    html: [
      "<p>We received your crypto payment{{#amount_with_coin}} of <strong>{{amount_with_coin}}</strong>{{/amount_with_coin}}{{#order_display_id}} for order #{{order_display_id}}{{/order_display_id}}.</p>",
      "<p>Thank you. Your order is confirmed.</p>",
      '{{#return_url}}<p><a href="{{return_url}}">See your order</a></p>{{/return_url}}',
    ].join("\n"),
  },
  underpaid: {
    subject: "Your crypto payment is short: {{due_with_coin}} still to pay",
    text: [
      "We received {{received_with_coin}} of the {{expected_with_coin}} your order asked for.",
      "To complete your order, pay the rest: {{due_with_coin}}, in the same coin.",
      "{{#pay_rest_until_text}}Please pay it before {{pay_rest_until_text}}.",
      "{{/pay_rest_until_text}}{{#return_url}}",
      "Pay the rest: {{return_url}}",
      "{{/return_url}}{{^return_url}}",
      "Go back to the shop's checkout to pay the rest.",
      "{{/return_url}}",
    ].join("\n"),
    html: [
      "<p>We received <strong>{{received_with_coin}}</strong> of the <strong>{{expected_with_coin}}</strong> your order asked for.</p>",
      "<p>To complete your order, pay the rest: <strong>{{due_with_coin}}</strong>, in the same coin.</p>",
      "{{#pay_rest_until_text}}<p>Please pay it before {{pay_rest_until_text}}.</p>{{/pay_rest_until_text}}",
      '{{#return_url}}<p><a href="{{return_url}}">Pay the rest</a></p>{{/return_url}}',
      "{{^return_url}}<p>Go back to the shop's checkout to pay the rest.</p>{{/return_url}}",
    ].join("\n"),
  },
  refundClaimable: {
    subject: "Your refund of {{amount_with_coin}}{{#order_display_id}} for order #{{order_display_id}}{{/order_display_id}}: tell us where to send it",
    text: [
      "The shop is refunding {{amount_with_coin}}{{#order_display_id}} for order #{{order_display_id}}{{/order_display_id}} to you in crypto{{#network}}, on the {{network}} network{{/network}}.",
      "Open this link, enter your own address for this coin and network, and confirm:",
      "{{claim_url}}",
      "{{#expires_at_text}}The link works once, until {{expires_at_text}}.",
      "{{/expires_at_text}}If you did not expect this refund, contact the shop.",
    ].join("\n"),
    html: [
      "<p>The shop is refunding <strong>{{amount_with_coin}}</strong>{{#order_display_id}} for order #{{order_display_id}}{{/order_display_id}} to you in crypto{{#network}}, on the {{network}} network{{/network}}.</p>",
      '<p><a href="{{claim_url}}">Enter your address and confirm</a></p>',
      "{{#expires_at_text}}<p>The link works once, until {{expires_at_text}}.</p>{{/expires_at_text}}",
      "<p>If you did not expect this refund, contact the shop.</p>",
    ].join("\n"),
  },
}

const SECTION = /\{\{([#^])([a-z_]+)\}\}([\s\S]*?)\{\{\/\2\}\}/
const PLACEHOLDER = /\{\{([a-z_]+)\}\}/g
const ANY_TAG = /\{\{([#^/]?)([^}]*)\}\}/g

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char])

const present = (value: string | null | undefined): value is string => value !== null && value !== undefined && value !== ""

/**
 * Renders one template with `data`: sections first (each kept or dropped as a whole, then what it
 * held), then placeholders. A placeholder with no value renders as nothing. `html` escapes every value.
 */
export function renderTemplate(template: string, data: Readonly<Record<string, string | null>>, mode: "text" | "html"): string {
  let out = template
  for (let match = SECTION.exec(out); match !== null; match = SECTION.exec(out)) {
    const [whole, sign, name, inner] = match
    const shown = sign === "#" ? present(data[name]) : !present(data[name])
    out = out.slice(0, match.index) + (shown ? inner : "") + out.slice(match.index + whole.length)
  }
  return out.replace(PLACEHOLDER, (_tag, name: string) => {
    const value = data[name]
    if (!present(value)) return ""
    return mode === "html" ? escapeHtml(value) : value
  })
}

/**
 * What is wrong with a merchant's template for `kind`, or null: a placeholder the message does not
 * have, or a section that is not closed. Checked when the options are parsed, so a typo stops the
 * server with the option's name instead of sending a message with a hole.
 */
export function templateProblem(kind: ShopperMessageKind, template: string): string | null {
  const known = new Set<string>(SHOPPER_MESSAGE_PLACEHOLDERS[kind])
  const open: string[] = []
  for (const [, sign, name] of template.matchAll(ANY_TAG)) {
    if (!known.has(name)) {
      return `unknown placeholder {{${sign}${name}}}; this message has ${[...known].join(", ")}`
    }
    if (sign === "#" || sign === "^") open.push(name)
    if (sign === "/") {
      if (open.pop() !== name) return `{{/${name}}} closes no open {{#${name}}} or {{^${name}}}`
    }
  }
  return open.length > 0 ? `{{#${open[open.length - 1]}}} is never closed with {{/${open[open.length - 1]}}}` : null
}

/** One message as the merchant's options resolve it: the `template` name, and the content to render (null: none). */
export interface ResolvedShopperMessage {
  template: string
  content: ShopperMessageContent | null
}

/** Each message resolved, or null when the merchant turned it off. */
export type ResolvedShopperMessages = Record<ShopperMessageKind, ResolvedShopperMessage | null>

/** What the merchant may write for one message in `shopperMessages` (docs/notifications.md#options). */
export interface ShopperMessageOption {
  /** The Notification Module `template` to send (a template id your provider knows). */
  template?: string
  /** Your own subject, text and html (each optional, the rest stays the default); `false` sends no content, only `template` and `data`. */
  content?: false | Partial<ShopperMessageContent>
}

export type ShopperMessagesOption = boolean | Partial<Record<ShopperMessageKind, boolean | ShopperMessageOption>>

/** The options' `shopperMessages` (already validated) → each message resolved. */
export function resolveShopperMessages(option: ShopperMessagesOption | undefined): ResolvedShopperMessages {
  const resolved = {} as ResolvedShopperMessages
  for (const kind of SHOPPER_MESSAGE_KINDS) {
    const entry = option === undefined || option === true ? true : option === false ? false : (option[kind] ?? true)
    if (entry === false) {
      resolved[kind] = null
      continue
    }
    const custom: ShopperMessageOption = entry === true ? {} : entry
    resolved[kind] = {
      template: custom.template ?? DEFAULT_SHOPPER_TEMPLATES[kind],
      content: custom.content === false ? null : { ...DEFAULT_SHOPPER_MESSAGES[kind], ...(custom.content ?? {}) },
    }
  }
  return resolved
}

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
