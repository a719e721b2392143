import { insufficientFunds, invalidAttribute, notFound } from "./errors"
import { ids } from "./ids"
import { Dec, roundDown, roundHalfUp, roundUp, str } from "./money"
import type { SandboxStore } from "./store"
import type { Exchange, ExchangeStatus, SeedCoin, SeedShop } from "./types"

export interface ExchangeQuote {
  from: SeedCoin
  to: SeedCoin
  fromAmount: Dec
  toAmount: Dec
  rate: Dec
  fee: Dec
}

/** Minimum and maximum of an exchange, 10 USD and 100 000 USD worth of the coin. */
export function exchangeLimits(coin: SeedCoin): { min: Dec; max: Dec } {
  return {
    min: roundUp(new Dec(10).div(coin.rate_usd), coin.precision),
    max: roundDown(new Dec(100_000).div(coin.rate_usd), coin.precision),
  }
}

/**
 * An exchange quote (spec §2.8 leaves the figures open; the sandbox's reading):
 * to = from × (rate_from / rate_to) × (1 − spread); the side computed is rounded against the shop
 * (a computed `to` down, a computed `from` up); `fee` = the spread in the from coin. Outside the
 * limits: 105 on the amount given.
 */
export function quoteExchange(from: SeedCoin, to: SeedCoin, amount: { from: Dec } | { to: Dec }, spreadPercent: string | number): ExchangeQuote {
  const spread = new Dec(spreadPercent).div(100)
  const rate = new Dec(from.rate_usd).div(to.rate_usd).times(new Dec(1).minus(spread))
  const fromAmount = "from" in amount ? amount.from : roundUp(amount.to.div(rate), from.precision)
  const toAmount = "to" in amount ? amount.to : roundDown(fromAmount.times(rate), to.precision)
  const limits = exchangeLimits(from)
  const attribute = "from" in amount ? "from_amount" : "to_amount"
  if (fromAmount.lt(limits.min)) {
    throw invalidAttribute(attribute, `The exchange minimum is ${str(limits.min)} ${from.psys_cid}.`)
  }
  if (fromAmount.gt(limits.max)) {
    throw invalidAttribute(attribute, `The exchange maximum is ${str(limits.max)} ${from.psys_cid}.`)
  }
  return {
    from,
    to,
    fromAmount,
    toAmount,
    rate: rate.toSignificantDigits(18),
    fee: roundHalfUp(fromAmount.times(spread), from.precision),
  }
}

/** The facts of each exchange status, in one table: whether it has ended, and whether the to coins went out (`tx_url`). */
export const EXCHANGE_STATUS: Record<ExchangeStatus, { ended: boolean; sent: boolean }> = {
  processing: { ended: false, sent: false },
  completed: { ended: true, sent: true },
  error: { ended: true, sent: false },
}

/** How the gateway ends an exchange before its time (control API `exchanges/:id/finish`). */
export interface ExchangeOutcome {
  status: "completed" | "error"
  /** `completed` only: the amount actually bought, when it differs from the quote; null keeps the quote */
  toAmount: Dec | null
}

/**
 * The exchange state machine: `processing` until `completes_at` on the sandbox clock, then
 * `completed`; an exchange that has ended (`completed`, or `error` through `finish`) never moves again.
 */
export function exchangeCompletes(exchange: Exchange, nowMs: number): boolean {
  return !EXCHANGE_STATUS[exchange.status].ended && nowMs >= exchange.completes_at
}

/** Exchanges (spec §2.8, §4.11): the from balance is debited at creation. */
export class Exchanges {
  constructor(private readonly store: SandboxStore) {}

  coins(): SeedCoin[] {
    return this.store.seed.exchange.psys_cids.map((id) => this.store.requireCoin(id, "currency"))
  }

  quote(from: SeedCoin, to: SeedCoin, amount: { from: Dec } | { to: Dec }): ExchangeQuote {
    return quoteExchange(from, to, amount, this.store.seed.exchange.spread_percent)
  }

  create(shop: SeedShop, quote: ExchangeQuote, toAddress: string): Exchange {
    if (this.store.balance(shop, quote.from.psys_cid).lt(quote.fromAmount)) {
      throw insufficientFunds()
    }
    this.store.addBalance(shop.id, quote.from.psys_cid, quote.fromAmount.negated())
    const now = this.store.clock.now()
    const exchange: Exchange = {
      id: ids.exchange(),
      shop_id: shop.id,
      from_currency: quote.from.psys_cid,
      to_currency: quote.to.psys_cid,
      from_amount: str(quote.fromAmount),
      to_amount: str(quote.toAmount),
      rate: str(quote.rate),
      fee: str(quote.fee),
      to_address: toAddress,
      status: "processing",
      txid: ids.txid(quote.to.network),
      created_at: now,
      completes_at: now + this.store.seed.exchange.processing_seconds * 1000,
      finished_at: null,
    }
    this.store.state.exchanges[exchange.id] = exchange
    this.store.changed()
    return exchange
  }

  get(shop: SeedShop, id: string): Exchange {
    const exchange = this.store.state.exchanges[id]
    if (exchange === undefined || exchange.shop_id !== shop.id) {
      throw notFound()
    }
    return exchange
  }

  /**
   * The gateway ends a `processing` exchange now, the ways a real one may (spec §2.8 leaves them open;
   * the sandbox's reading): `completed` with the quoted amount or with `toAmount` bought instead, or
   * `error`, which credits the from amount back to the shop's balance. 105 on `to_amount` for an
   * amount finer than the to coin or given with `error`; 105 on `status` for an ended exchange.
   */
  finish(exchange: Exchange, outcome: ExchangeOutcome): Exchange {
    if (outcome.toAmount !== null) {
      if (outcome.status === "error") {
        throw invalidAttribute("to_amount", "\"to_amount\" is only for status completed: an exchange in error buys nothing.")
      }
      const to = this.store.requireCoin(exchange.to_currency, "to_currency")
      if (outcome.toAmount.lte(0) || outcome.toAmount.decimalPlaces() > to.precision) {
        throw invalidAttribute("to_amount", `"to_amount" must be a positive decimal with at most ${to.precision} decimal places for ${to.psys_cid}.`)
      }
    }
    if (EXCHANGE_STATUS[exchange.status].ended) {
      throw invalidAttribute("status", `The exchange ${exchange.id} has already ended in status ${exchange.status}.`)
    }
    const now = this.store.clock.now()
    exchange.status = outcome.status
    exchange.finished_at = now
    if (outcome.status === "error") {
      this.store.addBalance(exchange.shop_id, exchange.from_currency, new Dec(exchange.from_amount))
    } else if (outcome.toAmount !== null) {
      exchange.to_amount = str(outcome.toAmount)
    }
    this.store.changed()
    return exchange
  }

  /** Completes every exchange the clock has made due; true if one did. */
  tick(): boolean {
    const now = this.store.clock.now()
    let changed = false
    for (const exchange of Object.values(this.store.state.exchanges)) {
      if (exchangeCompletes(exchange, now)) {
        exchange.status = "completed"
        exchange.finished_at = now
        changed = true
      }
    }
    return changed
  }
}
