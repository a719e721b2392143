import type { SandboxClock } from "./clock"
import { unsupportedCurrency } from "./errors"
import { ids } from "./ids"
import { Dec, str } from "./money"
import type { ChainTx, SandboxState, Seed, SeedCoin, SeedShop } from "./types"

/** The state of a fresh sandbox: the seed's balances, nothing else. */
export function emptyState(seed: Seed): SandboxState {
  const balances: Record<string, Record<string, string>> = {}
  for (const shop of seed.shops) {
    balances[shop.id] = {}
    for (const coin of seed.coins) {
      balances[shop.id][coin.psys_cid] = shop.balances[coin.psys_cid] ?? "0"
    }
  }
  return {
    version: 1,
    clock_offset_ms: 0,
    balances,
    invoices: {},
    withdrawals: {},
    deposits: [],
    pay_ins: {},
    exchanges: {},
    cash_ins: {},
    withdrawal_failures: {},
    block_height: 840_000,
  }
}

/**
 * The ONE state store every resource of the sandbox reads and writes: the seed (shops, coins,
 * rates), the clock, the saved state (balances, invoices, withdrawals, deposits, exchanges, block
 * height) and the change hook the state file listens to. Resources hold no state of their own, so a
 * snapshot of this store is the whole sandbox.
 */
export class SandboxStore {
  state: SandboxState

  constructor(
    readonly seed: Seed,
    readonly clock: SandboxClock,
    private readonly publicUrl: () => string,
    /** called after every change of state (the CLI saves the state file) */
    readonly changed: () => void
  ) {
    this.state = emptyState(seed)
  }

  shopByKey(apiKey: string | null): SeedShop | undefined {
    return apiKey === null ? undefined : this.seed.shops.find((s) => s.secret_key === apiKey)
  }

  shopById(id: string): SeedShop | undefined {
    return this.seed.shops.find((s) => s.id === id)
  }

  coin(psysCid: string): SeedCoin | undefined {
    return this.seed.coins.find((c) => c.psys_cid === psysCid)
  }

  /** The coin or a 105 naming the attribute (spec §7). */
  requireCoin(psysCid: string, attribute: string): SeedCoin {
    const coin = this.coin(psysCid)
    if (coin === undefined) {
      throw unsupportedCurrency(attribute, psysCid)
    }
    return coin
  }

  fiatPerUsd(code: string): string | undefined {
    return this.seed.fiat_currencies[code]?.rate
  }

  /** ISO 4217 minor units of a fiat currency the gateway knows; undefined for an unknown one. */
  fiatMinorUnits(code: string): number | undefined {
    return this.seed.fiat_currencies[code]?.minor_units
  }

  balance(shop: SeedShop, psysCid: string): Dec {
    return new Dec(this.state.balances[shop.id]?.[psysCid] ?? "0")
  }

  addBalance(shopId: string, psysCid: string, delta: Dec): void {
    const balances = this.state.balances[shopId] ?? (this.state.balances[shopId] = {})
    balances[psysCid] = str(new Dec(balances[psysCid] ?? "0").plus(delta))
  }

  baseUrl(): string {
    return this.publicUrl()
  }

  invoiceUrl(txnId: string): string {
    return `${this.publicUrl()}/invoice/${encodeURIComponent(txnId)}`
  }

  txUrl(coin: SeedCoin, txid: string): string {
    return coin.explorer_tx_url.replace("{txid}", txid)
  }

  /** A transaction seen on the chain now, with `confirmations` already (blocks mined as needed). */
  newTx(coin: SeedCoin, amount: Dec, confirmations: number): ChainTx {
    const tx: ChainTx = {
      txid: ids.txid(coin.network),
      value: str(amount),
      confirmations: 0,
      block_height: null,
      seen_at: this.clock.now(),
    }
    this.setConfirmations(tx, confirmations)
    return tx
  }

  /** A transaction's first confirmation puts it in a new block; later ones only count up. */
  setConfirmations(tx: ChainTx, confirmations: number): void {
    tx.confirmations = confirmations
    if (confirmations > 0 && tx.block_height === null) {
      this.state.block_height += 1
      tx.block_height = this.state.block_height - (confirmations - 1)
    }
  }
}
