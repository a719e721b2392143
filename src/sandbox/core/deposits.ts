import { payInCallbackFields } from "./callback-fields"
import type { CallbackDispatcher, CallbackFields } from "./dispatcher"
import { invalidAttribute, notFound } from "./errors"
import { ids } from "./ids"
import { Dec, roundHalfUp, str } from "./money"
import { paymentUri, qrBase64 } from "./qr"
import type { SandboxStore } from "./store"
import type { Deposit, PayIn, SeedCoin, SeedShop } from "./types"

export interface PayDepositInput {
  amount: Dec | null
  confirmations: number | null
  txid: string | null
}

/**
 * The pay_in state machine: `pending` until its transaction has the coin's expected
 * confirmations, then `completed` for good (the balance is credited amount − commission then).
 */
export function payInCompletes(payIn: PayIn, coin: SeedCoin): boolean {
  return payIn.status === "pending" && payIn.tx.confirmations >= coin.expected_confirmations
}

/** Deposit addresses of white-label shops and the pay_ins that arrive on them (spec §2.7, §4.10, §6.2). */
export class Deposits {
  constructor(
    private readonly store: SandboxStore,
    private readonly dispatcher: CallbackDispatcher
  ) {}

  /** The address stays tied to (uid, coin) for good: asking again returns the same one (spec §4.10). */
  async address(shop: SeedShop, uid: string, coin: SeedCoin): Promise<Deposit> {
    const state = this.store.state
    const existing = state.deposits.find((d) => d.shop_id === shop.id && d.uid === uid && d.psys_cid === coin.psys_cid)
    if (existing !== undefined) {
      return existing
    }
    const hash = ids.address(coin.network)
    const deposit: Deposit = {
      shop_id: shop.id,
      uid,
      psys_cid: coin.psys_cid,
      hash,
      qr_code: await qrBase64(paymentUri(coin.network, hash, null)),
      created_at: this.store.clock.now(),
    }
    state.deposits.push(deposit)
    this.store.changed()
    return deposit
  }

  list(shop: SeedShop, filter: { uid: string | null; psysCids: string[] }): Deposit[] {
    return this.store.state.deposits.filter(
      (d) =>
        d.shop_id === shop.id &&
        (filter.uid === null || d.uid === filter.uid) &&
        (filter.psysCids.length === 0 || filter.psysCids.includes(d.psys_cid))
    )
  }

  byHash(shop: SeedShop, hash: string): Deposit {
    const deposit = this.store.state.deposits.find((d) => d.shop_id === shop.id && d.hash === hash)
    if (deposit === undefined) {
      throw notFound()
    }
    return deposit
  }

  /**
   * Funds arrive on a deposit address (a `pay_in`). With `txid` of an earlier pay_in of the
   * address, only its confirmations change. Credited to the balance once confirmed.
   */
  pay(deposit: Deposit, input: PayDepositInput): PayIn {
    const shop = this.store.shopById(deposit.shop_id)
    const coin = this.store.requireCoin(deposit.psys_cid, "psys_cid")
    if (shop === undefined) {
      throw notFound()
    }
    let payIn: PayIn
    if (input.txid !== null) {
      const found = Object.values(this.store.state.pay_ins).find((p) => p.hash === deposit.hash && p.tx.txid === input.txid)
      if (found === undefined) {
        throw invalidAttribute("txid", "No pay_in of this address has that txid.")
      }
      payIn = found
      this.store.setConfirmations(payIn.tx, Math.max(payIn.tx.confirmations, input.confirmations ?? coin.expected_confirmations))
    } else {
      if (input.amount === null || input.amount.lte(0)) {
        throw invalidAttribute("amount", "A positive amount is required.")
      }
      if (input.amount.decimalPlaces() > coin.precision) {
        throw invalidAttribute("amount", `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
      }
      payIn = {
        id: ids.payIn(),
        shop_id: shop.id,
        uid: deposit.uid,
        psys_cid: coin.psys_cid,
        hash: deposit.hash,
        amount: str(input.amount),
        commission: str(roundHalfUp(input.amount.times(coin.invoice_commission_percentage).div(100), coin.precision)),
        tx: this.store.newTx(coin, input.amount, input.confirmations ?? coin.expected_confirmations),
        status: "pending",
        created_at: this.store.clock.now(),
        finished_at: null,
      }
      this.store.state.pay_ins[payIn.id] = payIn
    }
    const before = `${payIn.status}|${payIn.tx.confirmations}`
    if (payInCompletes(payIn, coin)) {
      payIn.status = "completed"
      payIn.finished_at = this.store.clock.now()
      this.store.addBalance(shop.id, coin.psys_cid, new Dec(payIn.amount).minus(payIn.commission))
    }
    if (`${payIn.status}|${payIn.tx.confirmations}` !== before || input.txid === null) {
      this.notify(payIn, deposit, coin, shop)
    }
    this.store.changed()
    return payIn
  }

  /** spec §6.2: every value a string except tx_urls. */
  callbackFields(payIn: PayIn, deposit: Deposit, coin: SeedCoin, shop: SeedShop): CallbackFields {
    return payInCallbackFields(payIn, deposit, coin, shop, (c, txid) => this.store.txUrl(c, txid))
  }

  /** A pay_in callback goes to the shop's Status URL and Success URL (spec §6.2). */
  private notify(payIn: PayIn, deposit: Deposit, coin: SeedCoin, shop: SeedShop): void {
    const targets = new Set([shop.status_url, shop.success_url].filter((u): u is string => u !== null))
    const fields = this.callbackFields(payIn, deposit, coin, shop)
    for (const url of targets) {
      this.dispatcher.enqueue({ shopId: shop.id, event: "pay_in", ref: payIn.id, url, fields })
    }
  }
}
