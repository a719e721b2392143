import { invalidAttribute, unsupportedCurrency } from "./errors"
import { ids } from "./ids"
import { str, type Dec } from "./money"
import type { SandboxStore } from "./store"
import type { CashIn, SeedShop } from "./types"

/**
 * Money that arrives at the shop's wallet directly, outside any invoice or deposit address (spec §2.2
 * `cash_in`, its amount in `params.value`): the balance is credited the whole amount at once and a
 * `cash_in` operation is recorded. The spec sends no callback for it (§6 lists only invoice and pay_in).
 */
export class CashIns {
  constructor(private readonly store: SandboxStore) {}

  receive(shop: SeedShop, psysCid: string, amount: Dec): CashIn {
    const coin = this.store.requireCoin(psysCid, "psys_cid")
    if (!shop.enabled_psys_cids.includes(psysCid)) {
      throw unsupportedCurrency("psys_cid", psysCid)
    }
    if (amount.lte(0)) {
      throw invalidAttribute("amount", "A positive amount is required.")
    }
    if (amount.decimalPlaces() > coin.precision) {
      throw invalidAttribute("amount", `At most ${coin.precision} decimal places for ${coin.psys_cid}.`)
    }
    const cashIn: CashIn = {
      id: ids.cashIn(),
      shop_id: shop.id,
      psys_cid: coin.psys_cid,
      amount: str(amount),
      status: "completed",
      txid: ids.txid(coin.network),
      created_at: this.store.clock.now(),
    }
    this.store.state.cash_ins[cashIn.id] = cashIn
    this.store.addBalance(shop.id, coin.psys_cid, amount)
    this.store.changed()
    return cashIn
  }
}
