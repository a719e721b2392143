/**
 * The shopper's messages as the merchant configures them (docs/notifications.md#options): which
 * messages there are, their named placeholders, the default English templates, the template
 * grammar (`renderTemplate`, and `templateProblem`, which the options check at start-up), and
 * `shopperMessages` resolved. Building each message's data and sending it is
 * `src/core/notify/shopper-messages.ts`.
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

/** Whether a template shows a value: null, undefined and "" render as nothing. */
export const present = (value: string | null | undefined): value is string => value !== null && value !== undefined && value !== ""

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

