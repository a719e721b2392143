import { z } from "@medusajs/framework/zod"
import { MedusaError } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { isDecimalString } from "../../gateway"
import {
  resolveShopperMessages,
  SHOPPER_MESSAGE_KINDS,
  templateProblem,
  type ResolvedShopperMessages,
  type ShopperMessageKind,
  type ShopperMessagesOption,
} from "./message-templates"
import { DEFAULT_ORDER_OUTCOMES, type OrderOutcomeRules, type OrderRule } from "./order-rules"
import { moneyOutOptionSchema, type MoneyOutPolicy } from "./money-out-policy"
import { COIN_ID_PATTERN } from "../coins"

/**
 * Options of the crypto payment provider, as written in `medusa-config.ts` under
 * `modules[payment].options.providers[].options`. Validated at boot: a wrong value stops the
 * server with a message that names the option and says how to fix it.
 */
export interface CryptoProviderOptions {
  /** The shop's secret key (spec §5.1). It also verifies callbacks (spec §6.3). */
  apiKey: string
  /** The gateway's `{base_url}` (the client appends `/api/v1`). No default on purpose. */
  baseUrl: string
  /** Public URL of this Medusa server; callbacks go to `${backendUrl}/hooks/crypto/<id>`. */
  backendUrl?: string
  /** Public URL of the storefront, for the invoice page's "To the site" buttons. */
  storefrontUrl?: string
  /** Path on the storefront after a paid invoice (`success_invoice_url`). */
  successPath?: string
  /** Path on the storefront after an unpaid invoice (`fail_invoice_url`). */
  failPath?: string
  /** Coins (`psys_cid`) the shopper may pay with; empty means every coin the shop enables. */
  allowedCurrencies?: string[]
  /** The coin preselected when the storefront sends none. */
  defaultCurrency?: string
  /** Minutes until an invoice expires (`expire_min`). */
  expireMinutes?: number
  /** Place the order as soon as a payment is seen on-chain (status `pending`). */
  orderOnDetection?: boolean
  /** How far below the invoice amount an expired invoice still counts as paid, in percent. */
  underpaidTolerancePercent?: number | string
  /**
   * Hours an order placed on detection waits for the shopper to pay the rest after its invoice
   * ended short beyond the tolerance (docs/attention.md#paying-the-rest); 0 cancels it at once.
   */
  payRestHours?: number
  /** The shop has white-label processing: session data carries address, amount, QR, expiry. */
  whiteLabel?: boolean
  /**
   * How long one gateway request may take, in milliseconds, before it counts as timed out (then
   * retried when safe). `initiatePayment` runs while the shopper waits at checkout.
   */
  gatewayTimeoutMs?: number
  /**
   * The shopper's e-mails through Medusa's Notification Module (docs/notifications.md): `false`
   * turns them all off; per message (`paymentInstructions`, `paymentReceived`, `underpaid`, `refundClaimable`) `false`,
   * or your own `template` name and `content`. Default: all on, with the default English templates.
   */
  shopperMessages?: ShopperMessagesOption
  /**
   * The deployment's money-out policy (docs/money-out.md#money-out-policy), the same field names as
   * the admin's Money out section: `address_book` (default true), `cooling_off_minutes` (default
   * 1440). The admin's changes apply on top; loosening ones wait the cooling-off.
   */
  moneyOut?: Partial<MoneyOutPolicy>
}

/** The options after validation, with every default applied. */
export interface ResolvedCryptoOptions {
  apiKey: string
  baseUrl: string
  backendUrl: string | undefined
  storefrontUrl: string | undefined
  successPath: string
  failPath: string
  allowedCurrencies: string[]
  defaultCurrency: string | undefined
  expireMinutes: number
  orderOnDetection: boolean
  /**
   * The merchant's order rules (src/core/config/order-rules.ts): which invoices place the order on
   * detection, per coin and amount; `orderOnDetection` is their default. Set in the admin only.
   */
  orderRules: OrderRule[]
  /** What an expired unpaid, underpaid, overpaid or `error` invoice does to its order (docs/books.md#order-rules). Set in the admin only; today's behaviour by default. */
  orderOutcomes: OrderOutcomeRules
  /** A callback never changes an order a person canceled or edited by hand (docs/books.md#protect-order-status). Set in the admin only; on by default. */
  protectOrderStatus: boolean
  underpaidTolerancePercent: Decimal
  payRestHours: number
  whiteLabel: boolean
  gatewayTimeoutMs: number
  /** Each shopper message with its template, or null when turned off. */
  shopperMessages: ResolvedShopperMessages
  /** The deployment's money-out policy, every field set; the admin's saved changes apply on top (src/core/money-out/policy.ts). */
  moneyOut: MoneyOutPolicy
}

export const DEFAULT_RETURN_PATH = "/checkout/crypto/return"
export const DEFAULT_EXPIRE_MINUTES = 60
export const DEFAULT_GATEWAY_TIMEOUT_MS = 20_000
/** How long an order placed on detection waits for the rest by default (docs/attention.md#paying-the-rest). */
export const DEFAULT_PAY_REST_HOURS = 24

const httpUrl = (option: string, example: string) =>
  z
    .string({ error: `${option} must be a string, for example "${example}"` })
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value)
        return url.protocol === "http:" || url.protocol === "https:"
      } catch {
        return false
      }
    }, `${option} must be an absolute http(s) URL, for example "${example}"`)
    .transform((value) => value.replace(/\/+$/, ""))

const path = (option: string) =>
  z
    .string({ error: `${option} must be a string path such as "${DEFAULT_RETURN_PATH}"` })
    .trim()
    .refine((value) => value.startsWith("/"), `${option} must start with "/", e.g. "${DEFAULT_RETURN_PATH}"`)

const coin = (option: string) =>
  z
    .string({ error: `${option} must hold coin IDs (psys_cid) as strings, e.g. "BTC"` })
    .trim()
    .regex(COIN_ID_PATTERN, `${option} must hold coin IDs (psys_cid) such as "BTC" or "USDT_TRX"`)

const percent = z
  .union([z.string().trim(), z.number()], {
    error: 'underpaidTolerancePercent must be a number from 0 to 100, e.g. 0.5 or "0.5"',
  })
  .transform((value, ctx) => {
    // A config literal such as 0.5 is read through its decimal text, never used as a float.
    const text = typeof value === "number" ? String(value) : value
    if (!isDecimalString(text)) {
      ctx.addIssue({
        code: "custom",
        message: `underpaidTolerancePercent must be a number from 0 to 100, e.g. 0.5; got "${text}"`,
      })
      return z.NEVER
    }
    const parsed = new Decimal(text)
    if (parsed.gt(100)) {
      ctx.addIssue({
        code: "custom",
        message: `underpaidTolerancePercent must be at most 100; got ${text}`,
      })
      return z.NEVER
    }
    return parsed
  })

const SHOPPER_MESSAGES_HELP = `true, false, or an object with ${SHOPPER_MESSAGE_KINDS.join(", ")} (docs/notifications.md)`

/** One message's template text: named placeholders only, sections closed (src/core/notify/shopper-messages.ts). */
const messageTemplate = (kind: ShopperMessageKind, field: "subject" | "text" | "html") => {
  const option = `shopperMessages.${kind}.content.${field}`
  return z
    .string({ error: `${option} must be a string` })
    .min(1, `${option} is empty: leave it out to keep the default`)
    .superRefine((value, ctx) => {
      const problem = templateProblem(kind, value)
      if (problem !== null) ctx.addIssue({ code: "custom", message: `${option}: ${problem}` })
    })
}

const shopperMessage = (kind: ShopperMessageKind) =>
  z.union(
    [
      z.boolean(),
      z
        .object({
          template: z
            .string({ error: `shopperMessages.${kind}.template must be a string: the template name your notification provider knows` })
            .trim()
            .min(1, `shopperMessages.${kind}.template is empty: leave it out for "${kind}"'s default`)
            .optional(),
          content: z
            .union(
              [
                z.literal(false),
                z
                  .object({ subject: messageTemplate(kind, "subject").optional(), text: messageTemplate(kind, "text").optional(), html: messageTemplate(kind, "html").optional() })
                  .strict(),
              ],
              { error: `shopperMessages.${kind}.content must be false or an object with subject, text and/or html` }
            )
            .optional(),
        })
        .strict(),
    ],
    { error: `shopperMessages.${kind} must be true, false or an object with template and/or content` }
  )

const ALL_MESSAGES_OFF = Object.fromEntries(SHOPPER_MESSAGE_KINDS.map((kind) => [kind, false]))

// true / false stand for every message on / off; an object is checked key by key, so an error
// names the message and the field (a union would only say that nothing matched).
const shopperMessages = z.preprocess(
  (value) => (value === true ? {} : value === false ? ALL_MESSAGES_OFF : value),
  z
    .object(
      {
        paymentInstructions: shopperMessage("paymentInstructions").optional(),
        paymentReceived: shopperMessage("paymentReceived").optional(),
        underpaid: shopperMessage("underpaid").optional(),
        refundClaimable: shopperMessage("refundClaimable").optional(),
      },
      { error: `shopperMessages must be ${SHOPPER_MESSAGES_HELP}` }
    )
    .strict()
)

const schema = z
  .object({
    apiKey: z
      .string({ error: "apiKey is required: set it to the shop's secret key from the gateway's API settings (e.g. apiKey: process.env.CRYPTO_API_KEY)" })
      .trim()
      .min(1, "apiKey is empty: set it to the shop's secret key from the gateway's API settings"),
    baseUrl: z
      .string({ error: 'baseUrl is required: set it to the gateway\'s base URL (for local development, the sandbox URL, e.g. "http://localhost:9010")' })
      .pipe(httpUrl("baseUrl", "https://gateway.example.com")),
    backendUrl: httpUrl("backendUrl", "https://api.my-shop.com").optional(),
    storefrontUrl: httpUrl("storefrontUrl", "https://my-shop.com").optional(),
    successPath: path("successPath").default(DEFAULT_RETURN_PATH),
    failPath: path("failPath").default(DEFAULT_RETURN_PATH),
    allowedCurrencies: z
      .array(coin("allowedCurrencies"), { error: 'allowedCurrencies must be an array of coin IDs, e.g. ["BTC", "ETH"]' })
      .default([]),
    defaultCurrency: coin("defaultCurrency").optional(),
    expireMinutes: z
      .number({ error: "expireMinutes must be a whole number of minutes, e.g. 60" })
      .int("expireMinutes must be a whole number of minutes, e.g. 60")
      .min(1, "expireMinutes must be at least 1")
      .max(14400, "expireMinutes must be at most 14400 (10 days)")
      .default(DEFAULT_EXPIRE_MINUTES),
    orderOnDetection: z.boolean({ error: "orderOnDetection must be true or false" }).default(true),
    underpaidTolerancePercent: percent.default(new Decimal(0)),
    payRestHours: z
      .number({ error: "payRestHours must be a whole number of hours, e.g. 24 (0 cancels at once)" })
      .int("payRestHours must be a whole number of hours, e.g. 24 (0 cancels at once)")
      .min(0, "payRestHours must be at least 0 (0 cancels at once)")
      .max(720, "payRestHours must be at most 720 (30 days)")
      .default(DEFAULT_PAY_REST_HOURS),
    whiteLabel: z.boolean({ error: "whiteLabel must be true or false" }).default(false),
    gatewayTimeoutMs: z
      .number({ error: "gatewayTimeoutMs must be a whole number of milliseconds, e.g. 20000" })
      .int("gatewayTimeoutMs must be a whole number of milliseconds, e.g. 20000")
      .min(100, "gatewayTimeoutMs must be at least 100 (milliseconds)")
      .max(120_000, "gatewayTimeoutMs must be at most 120000 (2 minutes)")
      .default(DEFAULT_GATEWAY_TIMEOUT_MS),
    shopperMessages: shopperMessages.default({}),
    moneyOut: moneyOutOptionSchema,
  })
  .strict()
  .superRefine((value, ctx) => {
    if (
      value.defaultCurrency !== undefined &&
      value.allowedCurrencies.length > 0 &&
      !value.allowedCurrencies.includes(value.defaultCurrency)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["defaultCurrency"],
        message: `defaultCurrency "${value.defaultCurrency}" is not in allowedCurrencies (${value.allowedCurrencies.join(", ")}): add it there or change it`,
      })
    }
  })

/**
 * Validates the provider options and applies the defaults. Throws a `MedusaError` (INVALID_DATA)
 * whose message lists every problem, each naming its option. The message never contains the
 * value of `apiKey`.
 */
export function parseCryptoOptions(raw: unknown): ResolvedCryptoOptions {
  const result = schema.safeParse(raw === undefined || raw === null ? {} : raw)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      if (issue.code === "unrecognized_keys") {
        const where = issue.path.map(String)
        return `unknown option(s) ${issue.keys.map((key) => [...where, key].join(".")).join(", ")}: check the spelling against the README's option table`
      }
      const option = issue.path.map(String).join(".")
      return option === "" || issue.message.startsWith(String(issue.path[0])) ? issue.message : `${option}: ${issue.message}`
    })
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Invalid options for the crypto payment provider (medusa-payment-crypto): ${problems.join("; ")}`
    )
  }
  const value = result.data
  return {
    apiKey: value.apiKey,
    baseUrl: value.baseUrl,
    backendUrl: value.backendUrl,
    storefrontUrl: value.storefrontUrl,
    successPath: value.successPath,
    failPath: value.failPath,
    allowedCurrencies: value.allowedCurrencies,
    defaultCurrency: value.defaultCurrency,
    expireMinutes: value.expireMinutes,
    orderOnDetection: value.orderOnDetection,
    orderRules: [],
    orderOutcomes: { ...DEFAULT_ORDER_OUTCOMES },
    protectOrderStatus: true,
    underpaidTolerancePercent: value.underpaidTolerancePercent,
    payRestHours: value.payRestHours,
    whiteLabel: value.whiteLabel,
    gatewayTimeoutMs: value.gatewayTimeoutMs,
    shopperMessages: resolveShopperMessages(value.shopperMessages),
    moneyOut: value.moneyOut,
  }
}

/** The warnings a valid configuration still deserves (dangerous omissions, with their effect). */
export function optionWarnings(options: ResolvedCryptoOptions): string[] {
  const warnings: string[] = []
  if (options.backendUrl === undefined) {
    warnings.push(
      "crypto payment provider: backendUrl is not set, so invoices carry no callback_url and the gateway posts callbacks to the shop's Status URL setting instead (spec §4.1). Set backendUrl to this server's public URL, or orders wait for the reconciliation job."
    )
  }
  return warnings
}

/** The provider entry's id → the public callback URL the gateway posts to (JSON, spec §4.1). */
export function callbackUrl(options: ResolvedCryptoOptions, providerEntryId: string): string | undefined {
  if (options.backendUrl === undefined) {
    return undefined
  }
  return `${options.backendUrl}/hooks/crypto/${encodeURIComponent(providerEntryId)}?json=true`
}

/** The storefront return URL for an invoice page button, with the cart id for the return page. */
export function returnUrl(options: ResolvedCryptoOptions, which: "success" | "fail", cartId: string | undefined): string | undefined {
  if (options.storefrontUrl === undefined) {
    return undefined
  }
  const url = new URL(`${options.storefrontUrl}${which === "success" ? options.successPath : options.failPath}`)
  if (cartId !== undefined) {
    url.searchParams.set("cart_id", cartId)
  }
  return url.toString()
}
