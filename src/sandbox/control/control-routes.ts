import { invalidAttribute, notFound, unauthorized } from "../core/errors"
import type { SandboxCore } from "../core/sandbox-core"
import type { SeedShop } from "../core/types"
import { FAULT_MODES, type FaultInjector } from "../http/faults"
import type { Reply, RequestContext, Route } from "../http/router"
import { exchangeView } from "../http/views"
import { cashInView, currencyStateView, invoiceState, payInView, shopSettingsView } from "./state-views"

export const CONTROL_PREFIX = "/_sandbox"

const ok = (data: unknown): Reply => ({ status: 200, json: { status: "success", data } })

/** Same api_key as the API; any shop's key works, and invoices/deposits/callbacks are that shop's. */
function controlShop(ctx: RequestContext): SeedShop {
  const shop = ctx.core.shopByKey(ctx.params.text("api_key", 512))
  if (shop === undefined) {
    throw unauthorized()
  }
  return shop
}

function confirmations(ctx: RequestContext): number | null {
  return ctx.params.integer("confirmations", 0, 1_000_000)
}

/** `count` of the fail-next and drop routes: 1 to 1000, default 1. */
function count(ctx: RequestContext): number {
  return ctx.params.integer("count", 1, 1000) ?? 1
}

const CALLBACK_EVENTS = ["invoice", "pay_in"] as const

/** A boolean as the control body carries it (JSON `true` / `false` arrive as these words). */
const BOOLEANS = ["true", "false"] as const

/** How the control API may end an exchange (`exchanges/:id/finish`). */
const EXCHANGE_ENDS = ["completed", "error"] as const

/** The control API of the issue: exactly these routes. */
export function controlRoutes(faults: FaultInjector): Route[] {
  return [
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id/pay`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const invoice = ctx.core.requireInvoice(shop, ctx.path.txn_id)
        ctx.core.pay(invoice, {
          amount: ctx.params.decimal("amount"),
          confirmations: confirmations(ctx),
          error: ctx.params.flag("error"),
        })
        return ok(invoiceState(ctx.core, invoice))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id/confirm`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const invoice = ctx.core.requireInvoice(shop, ctx.path.txn_id)
        ctx.core.confirm(invoice, confirmations(ctx))
        return ok(invoiceState(ctx.core, invoice))
      },
    },
    {
      method: "GET",
      pattern: `${CONTROL_PREFIX}/invoices`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        ctx.core.tick()
        const status = ctx.params.text("status", 64)
        return ok(
          ctx.core
            .shopInvoices(shop)
            .filter((invoice) => status === null || invoice.status === status)
            .map((invoice) => invoiceState(ctx.core, invoice))
        )
      },
    },
    {
      method: "GET",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        ctx.core.tick()
        return ok(invoiceState(ctx.core, ctx.core.requireInvoice(shop, ctx.path.txn_id)))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id/settle`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const invoice = ctx.core.requireInvoice(shop, ctx.path.txn_id)
        ctx.core.settle(invoice)
        return ok(invoiceState(ctx.core, invoice))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id/expire`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const invoice = ctx.core.requireInvoice(shop, ctx.path.txn_id)
        ctx.core.expireInvoice(invoice)
        return ok(invoiceState(ctx.core, invoice))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id/drop`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const invoice = ctx.core.requireInvoice(shop, ctx.path.txn_id)
        ctx.core.dropUnconfirmed(invoice)
        return ok(invoiceState(ctx.core, invoice))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/exchanges/:id/finish`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        if (ctx.params.text("status", 64) === null) {
          throw invalidAttribute("status", `"status" is required: one of ${EXCHANGE_ENDS.join(", ")}.`)
        }
        const exchange = ctx.core.finishExchange(shop, ctx.path.id, {
          status: ctx.params.oneOf("status", EXCHANGE_ENDS, "completed"),
          toAmount: ctx.params.decimal("to_amount"),
        })
        return ok(exchangeView(ctx.core, exchange))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/shop`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const p = ctx.params
        // An empty URL clears it (JSON null cannot travel in the flattened control body).
        const url = (name: string): string | null | undefined => (p.has(name) ? p.url(name) : undefined)
        if (p.has("enabled_psys_cids") && p.list("enabled_psys_cids").length === 0) {
          throw invalidAttribute("enabled_psys_cids", "\"enabled_psys_cids\" must name at least one coin.")
        }
        const changed = ctx.core.shopSettings(shop, {
          enabledPsysCids: p.has("enabled_psys_cids") ? p.list("enabled_psys_cids") : undefined,
          statusUrl: url("status_url"),
          successUrl: url("success_url"),
        })
        return ok(shopSettingsView(changed))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/currencies/:psys_cid`,
      handler: (ctx) => {
        controlShop(ctx)
        // A coin is the gateway's, not one shop's: the change shows in every shop's currencies list.
        const maintenance = ctx.params.has("maintenance") ? ctx.params.oneOf("maintenance", BOOLEANS, "false") === "true" : undefined
        return ok(currencyStateView(ctx.core.currencySettings(ctx.path.psys_cid, { maintenance })))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/withdrawals/fail-next`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        return ok({ pending: ctx.core.failNextWithdrawals(shop, count(ctx)) })
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/cash-in`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const amount = ctx.params.decimal("amount")
        if (amount === null) {
          throw invalidAttribute("amount", "\"amount\" is required: a positive decimal such as 0.5.")
        }
        return ok(cashInView(ctx.core.cashIn(shop, ctx.params.required("psys_cid", 422, 32), amount)))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/callbacks/drop`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const event = ctx.params.has("event") ? ctx.params.oneOf("event", CALLBACK_EVENTS, "invoice") : undefined
        const pending = ctx.core.dropCallbacks(shop, { ref: ctx.params.text("txn_id", 128) ?? undefined, event }, count(ctx))
        return ok({ pending })
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/invoices/:txn_id/switch`,
      handler: async (ctx) => {
        const shop = controlShop(ctx)
        const invoice = ctx.core.requireInvoice(shop, ctx.path.txn_id)
        const child = await ctx.core.switchInvoice(invoice, ctx.params.required("psys_cid", 422, 32))
        return ok(invoiceState(ctx.core, child))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/deposits/:hash/pay`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        const deposit = ctx.core.depositByHash(shop, ctx.path.hash)
        const payIn = ctx.core.payDeposit(deposit, {
          amount: ctx.params.decimal("amount"),
          confirmations: confirmations(ctx),
          txid: ctx.params.text("txid", 128),
        })
        return ok(payInView(ctx.core, payIn))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/clock/advance`,
      handler: (ctx) => {
        controlShop(ctx)
        const text = ctx.params.required("seconds", 422, 32)
        if (!/^\d{1,9}(?:\.\d{1,3})?$/.test(text)) {
          throw invalidAttribute("seconds", "\"seconds\" must be a number from 0 to 999999999.")
        }
        ctx.core.advanceClock(Number(text))
        return ok(clockView(ctx.core))
      },
    },
    {
      method: "GET",
      pattern: `${CONTROL_PREFIX}/callbacks`,
      handler: (ctx) => {
        const shop = controlShop(ctx)
        return ok(ctx.core.deliveries(shop, ctx.params.text("txn_id", 128) ?? undefined))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/callbacks/:id/redeliver`,
      handler: async (ctx) => {
        const shop = controlShop(ctx)
        const delivery = ctx.core.dispatcher.get(ctx.path.id)
        if (delivery === undefined || delivery.shop_id !== shop.id) {
          throw notFound()
        }
        return ok(await ctx.core.dispatcher.redeliver(delivery.id))
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/faults`,
      handler: (ctx) => {
        controlShop(ctx)
        if (!ctx.params.has("mode")) {
          throw invalidAttribute("mode", `"mode" is required: one of ${FAULT_MODES.join(", ")}.`)
        }
        const fault = faults.add({
          path: ctx.params.text("path", 512),
          mode: ctx.params.oneOf("mode", FAULT_MODES, "5xx"),
          count: ctx.params.integer("count", 1, 1000) ?? 1,
          ms: ctx.params.integer("ms", 0, 600_000),
        })
        return ok(fault)
      },
    },
    {
      method: "POST",
      pattern: `${CONTROL_PREFIX}/reset`,
      handler: (ctx) => {
        controlShop(ctx)
        faults.clear()
        ctx.core.reset()
        return ok({ reset: true })
      },
    },
  ]
}

export function clockView(core: SandboxCore): { now_utc: number; offset_seconds: number } {
  return { now_utc: core.clock.nowSeconds(), offset_seconds: Math.round(core.clock.offset / 1000) }
}
