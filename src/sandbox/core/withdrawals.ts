import { feeCannotBeEstimated, insufficientFunds } from "./errors"
import { ids } from "./ids"
import { Dec, str, sum } from "./money"
import type { SandboxStore } from "./store"
import type { FeePlanName, SeedCoin, SeedShop, Withdrawal } from "./types"

export interface WithdrawInput {
  coin: SeedCoin
  type: "cash_out" | "mass_cash_out"
  to: string[]
  amounts: Dec[]
  plan: FeePlanName
}

/**
 * The network fee of a payout (spec §2.6), in the withdrawn coin: UTXO networks pay the plan's
 * `value` once per transaction (many outputs), account networks (EVM, Tron) once per address.
 */
export function networkFee(coin: SeedCoin, plan: FeePlanName, addressCount: number): Dec {
  const value = new Dec(coin.fee_plans[plan].value)
  const perAddress = coin.network === "ethereum" || coin.network === "tron"
  return perAddress ? value.times(Math.max(1, addressCount)) : value
}

/**
 * Whether a balance pays a payout (spec §7): 115 when it cannot even pay the fee, 116 when it
 * cannot pay amount + fee.
 */
export function checkFunds(balance: Dec, amounts: Dec[], fee: Dec): void {
  if (balance.lt(fee)) {
    throw feeCannotBeEstimated()
  }
  if (balance.lt(sum(amounts).plus(fee))) {
    throw insufficientFunds()
  }
}

/** The amounts of a withdrawal, summed. */
export function withdrawalTotal(w: Withdrawal): Dec {
  return sum(w.amounts)
}

/**
 * Withdrawals (spec §2.3, §4.2): completed at once, the balance debited amount + fee. A shop told to
 * fail its next withdrawals (control API `withdrawals/fail-next`) gets, for a request that passes every
 * check, a withdrawal with status `error` instead: recorded as an operation, nothing sent, nothing debited.
 */
export class Withdrawals {
  constructor(private readonly store: SandboxStore) {}

  checkFunds(shop: SeedShop, coin: SeedCoin, amounts: Dec[], fee: Dec): void {
    checkFunds(this.store.balance(shop, coin.psys_cid), amounts, fee)
  }

  /** The next `count` withdrawals of the shop end in `error`; answers how many are pending now. */
  failNext(shop: SeedShop, count: number): number {
    const failures = this.store.state.withdrawal_failures
    failures[shop.id] = (failures[shop.id] ?? 0) + count
    this.store.changed()
    return failures[shop.id]
  }

  create(shop: SeedShop, input: WithdrawInput): Withdrawal {
    const fee = networkFee(input.coin, input.plan, input.to.length)
    this.checkFunds(shop, input.coin, input.amounts, fee)
    const failures = this.store.state.withdrawal_failures
    const fails = (failures[shop.id] ?? 0) > 0
    if (fails) {
      failures[shop.id] -= 1
    } else {
      const total = sum(input.amounts).plus(fee)
      this.store.addBalance(shop.id, input.coin.psys_cid, total.negated())
    }
    const withdrawal: Withdrawal = {
      id: ids.withdrawal(),
      shop_id: shop.id,
      type: input.type,
      status: fails ? "error" : "completed",
      psys_cid: input.coin.psys_cid,
      to: input.to,
      amounts: input.amounts.map(str),
      fee: str(fee),
      plan: input.plan,
      txid: fails ? null : ids.txid(input.coin.network),
      created_at: this.store.clock.now(),
    }
    this.store.state.withdrawals[withdrawal.id] = withdrawal
    this.store.changed()
    return withdrawal
  }
}
