import type { Context, InferTypeOf } from "@medusajs/framework/types"
import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/postgresql"
import { container as applicationContainer } from "@medusajs/framework"
import { generateEntityId, InjectManager, InjectTransactionManager, MedusaContext, MedusaError, MedusaService, Modules } from "@medusajs/framework/utils"
import { callbackInsertOnce, callbackUpsert, storedCallbackOf, type CryptoCallbackDelivery, type StoredCryptoCallback } from "./callback-upsert"
import { CryptoAttention, type CryptoAttentionKind } from "./models/crypto-attention"
import { CryptoBalanceSnapshot } from "./models/crypto-balance-snapshot"
import { CryptoCallback } from "./models/crypto-callback"
import { CryptoExchange } from "./models/crypto-exchange"
import { CryptoInvoice } from "./models/crypto-invoice"
import { CryptoRateCache } from "./models/crypto-rate-cache"
import { CryptoRefundClaim } from "./models/crypto-refund-claim"
import { CryptoSetting } from "./models/crypto-setting"
import { CryptoSettingChange } from "./models/crypto-setting-change"
import { CryptoSyncCursor } from "./models/crypto-sync-cursor"
import { CryptoWithdrawal } from "./models/crypto-withdrawal"
import { invalidateSettingsOnWrite, type SettingsCache } from "../../core/config/settings"
import {
  releaseInvoiceReservation,
  reservationLockKey,
  reserveInvoiceRow,
  type InvoiceReservation,
  type ReservationRow,
  type ReservationRows,
  type ReserveInvoiceInput,
} from "../../core/payment/invoice-reservation"
import { Decimal } from "decimal.js"
import { exact } from "../../core/money"
import { isOpenTopUp, payingTheRestRefusal, topUpPlan, type TopUpGroupRow, type TopUpPlan } from "../../core/payment/top-up"

export type CryptoAttentionRecord = InferTypeOf<typeof CryptoAttention>

/** What a processing step knows when it detects something the merchant must decide. */
export interface RaiseCryptoAttentionInput {
  kind: CryptoAttentionKind
  provider_id: string
  subject_id: string
  order_id?: string | null
  cart_id?: string | null
  psys_cid?: string | null
  currency?: string | null
  /** A decimal string in the coin `psys_cid`. */
  amount?: string | null
  evidence: Record<string, unknown>
}

export type CryptoWithdrawalRecord = InferTypeOf<typeof CryptoWithdrawal>
/** One withdrawal row as `createCryptoWithdrawals` takes it. */
type CryptoWithdrawalCreate = Partial<CryptoWithdrawalRecord>

/**
 * Our own data: verified callback deliveries, the invoice mirror (one row per invoice we create,
 * with its order number and last known state), the currency/rate cache, the merchant's admin
 * settings per provider, withdrawals (cash_out / mass_cash_out, refunds included) with their
 * duplicate guard, exchanges, the "Needs attention" queue, and the cursors of the reconciliation's
 * reads of gateway lists. Data only: what the rows mean is
 * src/core's business (e.g. the effective options, src/core/config/settings.ts).
 */
class CryptoModuleService extends MedusaService({
  CryptoAttention,
  CryptoBalanceSnapshot,
  CryptoCallback,
  CryptoExchange,
  CryptoInvoice,
  CryptoRateCache,
  CryptoRefundClaim,
  CryptoSetting,
  CryptoSettingChange,
  CryptoSyncCursor,
  CryptoWithdrawal,
}) {
  // MedusaService's constructor takes the module's container and declaration; they are passed on.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(...args: any[]) {
    super(...args)
    // Every write to the settings table invalidates the settings checkouts read through Medusa's
    // cache module, on every instance sharing it (src/core/config/settings.ts).
    invalidateSettingsOnWrite(this, () => this.cryptoSettingsCache())
  }

  /**
   * Medusa's cache module (`Modules.CACHE`: in-memory by default, Redis in production), where the
   * payment paths keep the settings rows (src/core/config/settings.ts). Medusa hands a module only a few
   * shared services (not this one), so it is resolved from the application when used; undefined
   * where there is none (a script without the application).
   */
  async cryptoSettingsCache(): Promise<SettingsCache | undefined> {
    try {
      return applicationContainer.resolve<SettingsCache | undefined>(Modules.CACHE, { allowUnregistered: true }) ?? undefined
    } catch {
      return undefined
    }
  }

  /**
   * Stores a verified delivery or counts a redelivery in one atomic statement (`callbackUpsert`):
   * the callback route answers right after it, with no lock and no workflow.
   */
  @InjectManager()
  async storeCryptoCallback(delivery: CryptoCallbackDelivery, @MedusaContext() sharedContext: Context = {}): Promise<StoredCryptoCallback> {
    const manager = sharedContext.manager as SqlEntityManager
    const { sql, params } = callbackUpsert(generateEntityId(undefined, "ccb"), delivery)
    const rows: Array<Record<string, unknown>> = await manager.execute(sql, params)
    return storedCallbackOf(rows[0])
  }

  /**
   * Stores a `pay_in` read back from the gateway (`format` = `operation`) unless the same reading
   * (content hash) is stored: the new row's id, or null when it was there. One atomic statement, so
   * two instances recovering the same pay_in at once record it once.
   */
  @InjectManager()
  async storeRecoveredCryptoCallback(delivery: CryptoCallbackDelivery, @MedusaContext() sharedContext: Context = {}): Promise<string | null> {
    const manager = sharedContext.manager as SqlEntityManager
    const { sql, params } = callbackInsertOnce(generateEntityId(undefined, "ccb"), delivery)
    const rows: Array<Record<string, unknown>> = await manager.execute(sql, params)
    const id = rows[0]?.id
    return typeof id === "string" ? id : null
  }

  /**
   * Reserves the gateway order number of a new payment session before the gateway is asked
   * (src/core/payment/invoice-reservation.ts): one transaction holding a PostgreSQL advisory lock on the
   * cart, so two sessions created at once for one cart, on any instances, cannot take the same new
   * number, and a retry after a failed call finds its reservation again.
   */
  @InjectManager()
  async reserveCryptoInvoice(input: ReserveInvoiceInput, @MedusaContext() sharedContext: Context = {}): Promise<InvoiceReservation> {
    return this.reserveCryptoInvoice_(input, sharedContext)
  }

  @InjectTransactionManager()
  protected async reserveCryptoInvoice_(input: ReserveInvoiceInput, @MedusaContext() sharedContext: Context = {}): Promise<InvoiceReservation> {
    return reserveInvoiceRow(await lockedReservationRows(this, input.base, sharedContext), input)
  }

  /**
   * Removes a reservation the gateway clearly refused (spec §7: 4xx), under the same lock, and gives
   * the rows it had superseded back their session. Never for an unknown outcome: a retry asks for
   * the same invoice.
   */
  @InjectManager()
  async releaseCryptoInvoiceReservation(input: { id: string; base: string }, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await this.releaseCryptoInvoiceReservation_(input, sharedContext)
  }

  @InjectTransactionManager()
  protected async releaseCryptoInvoiceReservation_(input: { id: string; base: string }, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await releaseInvoiceReservation(await lockedReservationRows(this, input.base, sharedContext), input.id)
  }

  /**
   * Opens the top-up of an invoice that ended short (docs/attention.md#paying-the-rest) under the
   * same lock as the cart's order numbers, in one transaction: decides with `topUpPlan` (an open
   * top-up is answered again), records the new top-up row for the root's session and reopens the
   * root (`canceled` → `pending`, nothing owed back while the shopper pays the rest). The gateway is
   * asked afterwards, with the row's order number.
   */
  @InjectManager()
  async reserveCryptoTopUp(input: { root_id: string; base: string; order_canceled: boolean }, @MedusaContext() sharedContext: Context = {}): Promise<TopUpPlan & { id?: string }> {
    return this.reserveCryptoTopUp_(input, sharedContext)
  }

  @InjectTransactionManager()
  protected async reserveCryptoTopUp_(input: { root_id: string; base: string; order_canceled: boolean }, @MedusaContext() sharedContext: Context = {}): Promise<TopUpPlan & { id?: string }> {
    await lockReservations(sharedContext, input.base)
    const root = await this.retrieveCryptoInvoice(input.root_id, {}, sharedContext)
    const topUps = await this.listCryptoInvoices({ topup_of: root.id }, { order: { created_at: "ASC" } }, sharedContext)
    const ids = [root.id, ...topUps.map((row) => row.id)]
    const [items, withdrawals] = await Promise.all([
      this.listCryptoAttentions({ kind: "underpaid", subject_id: root.id, status: "open" }, { take: 1 }, sharedContext),
      this.listCryptoWithdrawals({ invoice_id: ids }, { take: 1 }, sharedContext),
    ])
    const plan = topUpPlan(root as TopUpGroupRow, topUps as TopUpGroupRow[], {
      underpaidItemOpen: items.length > 0,
      moneySentBack: withdrawals.length > 0,
      orderCanceled: input.order_canceled,
      restExpired: root.rest_until !== null && new Date(root.rest_until).getTime() <= Date.now(),
    })
    if (plan.kind !== "new") {
      return plan.kind === "existing" ? { ...plan, id: plan.topUp.id } : plan
    }
    const created = await this.createCryptoInvoices(
      {
        provider_id: root.provider_id,
        order_number: plan.orderNumber,
        attempt: root.attempt,
        cart_id: root.cart_id,
        payment_collection_id: root.payment_collection_id,
        session_id: root.session_id,
        source_currency: root.source_currency,
        source_amount: fiatShare(root.source_amount, plan.shortfall, plan.expected),
        psys_cid: plan.psys_cid,
        currency: plan.currency,
        expected_amount: plan.shortfall,
        session_status: "pending",
        topup_of: root.id,
      },
      sharedContext
    )
    await this.updateCryptoInvoices({ id: root.id, session_status: "pending", refund_due_amount: null }, sharedContext)
    return { ...plan, id: created.id }
  }

  /**
   * Records the send-back of an underpayment (a withdrawal naming the invoice, not yet sent) under
   * the lock top-ups are opened under (`reserveCryptoTopUp`), in one transaction: while a top-up of
   * the invoice's root is open the shopper is paying the rest, that money counts toward the order,
   * and nothing is recorded (NOT_ALLOWED, `payingTheRestRefusal`). A top-up opened after this
   * commits sees the withdrawal and is refused in turn, so the money is never both sent back and
   * counted (docs/attention.md#paying-the-rest).
   */
  @InjectManager()
  async createCryptoSendBack(data: CryptoWithdrawalCreate & { invoice_id: string }, @MedusaContext() sharedContext: Context = {}): Promise<CryptoWithdrawalRecord> {
    return this.createCryptoSendBack_(data, sharedContext)
  }

  @InjectTransactionManager()
  protected async createCryptoSendBack_(data: CryptoWithdrawalCreate & { invoice_id: string }, @MedusaContext() sharedContext: Context = {}): Promise<CryptoWithdrawalRecord> {
    const invoice = await this.retrieveCryptoInvoice(data.invoice_id, {}, sharedContext)
    const root = invoice.topup_of === null ? invoice : await this.retrieveCryptoInvoice(invoice.topup_of, {}, sharedContext)
    const base = root.cart_id ?? root.payment_collection_id
    if (base !== null) await lockReservations(sharedContext, base)
    const open = (await this.listCryptoInvoices({ topup_of: root.id }, {}, sharedContext)).find(isOpenTopUp)
    if (open !== undefined) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, payingTheRestRefusal(open))
    }
    return this.createCryptoWithdrawals(data, sharedContext)
  }

  /**
   * Takes back a top-up the gateway clearly refused (spec §7: 4xx): the row goes and the root is
   * as it was (ended short, its receipt owed back). Never for an unknown outcome: a retry asks for
   * the same order number.
   */
  @InjectManager()
  async releaseCryptoTopUp(input: { id: string; base: string }, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await this.releaseCryptoTopUp_(input, sharedContext)
  }

  @InjectTransactionManager()
  protected async releaseCryptoTopUp_(input: { id: string; base: string }, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    await lockReservations(sharedContext, input.base)
    const topUp = await this.retrieveCryptoInvoice(input.id, {}, sharedContext)
    if (topUp.topup_of === null || topUp.txn_id !== null) return
    const root = await this.retrieveCryptoInvoice(topUp.topup_of, {}, sharedContext)
    await this.deleteCryptoInvoices(topUp.id, sharedContext)
    await this.updateCryptoInvoices({ id: root.id, session_status: "canceled", refund_due_amount: root.received_amount }, sharedContext)
  }

  /**
   * Takes a waiting, unexpired claim for `address`, once: one atomic update from `waiting` to
   * `claimed` (docs/money-out.md#refunds-the-shopper-claims). The claim's id when this call took it,
   * null when it was not waiting (claimed by another request, revoked, expired, unknown).
   */
  @InjectManager()
  async claimCryptoRefundClaim(input: { token_hash: string; address: string }, @MedusaContext() sharedContext: Context = {}): Promise<string | null> {
    const manager = sharedContext.manager as SqlEntityManager
    const rows: Array<Record<string, unknown>> = await manager.execute(
      `update "crypto_refund_claim" set "status" = 'claimed', "address" = ?, "claimed_at" = now(), "error" = null, "updated_at" = now() ` +
        `where "token_hash" = ? and "status" = 'waiting' and "expires_at" > now() and "deleted_at" is null returning "id"`,
      [input.address, input.token_hash]
    )
    const id = rows[0]?.id
    return typeof id === "string" ? id : null
  }

  /**
   * Counts one failed processing of a stored delivery and keeps its reason, in one statement: the
   * subscriber's retry and the reconciliation job failing at the same moment both count. The new
   * count, or null when there is no such delivery.
   */
  @InjectManager()
  async countCryptoCallbackFailure(id: string, reason: string, @MedusaContext() sharedContext: Context = {}): Promise<number | null> {
    const manager = sharedContext.manager as SqlEntityManager
    const rows: Array<Record<string, unknown>> = await manager.execute(
      `update "crypto_callback" set "failure_count" = "failure_count" + 1, "outcome" = 'failed', "last_error" = ?, "updated_at" = now() ` +
        `where "id" = ? and "deleted_at" is null returning "failure_count"`,
      [reason.slice(0, 1000), id]
    )
    const count = rows[0]?.failure_count
    return count === undefined || count === null ? null : Number(count)
  }

  /** Where a reconciliation read stopped (`crypto_sync_cursor`), or null before the first. */
  async readCryptoSyncCursor(providerId: string, name: string): Promise<string | null> {
    const [cursor] = await this.listCryptoSyncCursors({ provider_id: providerId, name }, { take: 1 })
    return cursor?.position ?? null
  }

  /**
   * Moves a cursor forward to `position` (a decimal integer string), never back: one statement,
   * the larger of the stored and the new position wins, so instances finishing in any order agree.
   */
  @InjectManager()
  async advanceCryptoSyncCursor(providerId: string, name: string, position: string, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    if (!/^\d{1,20}$/.test(position)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `cursor position must be a non-negative integer, got ${JSON.stringify(position)}`)
    }
    const manager = sharedContext.manager as SqlEntityManager
    await manager.execute(
      `insert into "crypto_sync_cursor" ("id", "provider_id", "name", "position") values (?, ?, ?, ?) ` +
        `on conflict ("provider_id", "name") where "deleted_at" is null ` +
        `do update set "position" = greatest("crypto_sync_cursor"."position"::numeric, excluded."position"::numeric)::text, "updated_at" = now()`,
      [generateEntityId(undefined, "ccur"), providerId, name, position]
    )
  }

  /**
   * Raises one attention item, idempotently: the same (`kind`, `subject_id`) is one row. An open
   * item takes the latest amount and evidence (more money may have arrived); a resolved one is
   * left as decided. `created` says whether this call raised it (so the event is emitted once).
   */
  async raiseCryptoAttention(input: RaiseCryptoAttentionInput): Promise<{ attention: CryptoAttentionRecord; created: boolean }> {
    const find = async () => (await this.listCryptoAttentions({ kind: input.kind, subject_id: input.subject_id }, { take: 1 }))[0]
    const values = {
      provider_id: input.provider_id,
      order_id: input.order_id ?? null,
      cart_id: input.cart_id ?? null,
      psys_cid: input.psys_cid ?? null,
      currency: input.currency ?? null,
      amount: input.amount ?? null,
      evidence: input.evidence,
    }
    let existing = await find()
    if (existing === undefined) {
      try {
        const attention = await this.createCryptoAttentions({ kind: input.kind, subject_id: input.subject_id, status: "open", ...values })
        return { attention, created: true }
      } catch (error) {
        // Raised at the same moment by another process: the unique (kind, subject_id) kept one row.
        existing = await find()
        if (existing === undefined) throw error
      }
    }
    if (existing.status !== "open") {
      return { attention: existing, created: false }
    }
    const attention = await this.updateCryptoAttentions({
      id: existing.id,
      ...values,
      order_id: values.order_id ?? existing.order_id,
      cart_id: values.cart_id ?? existing.cart_id,
    })
    return { attention, created: false }
  }
}

/**
 * The fiat share of a top-up, for the gateway's records and the admin: `source` × `part` / `whole`,
 * rounded up to the places the root's fiat amount has (what the cart's currency uses).
 */
function fiatShare(source: string, part: string, whole: string): string {
  const places = source.split(".")[1]?.length ?? 0
  return exact(source).times(part).dividedBy(whole).toDecimalPlaces(places, Decimal.ROUND_UP).toFixed(places)
}

/**
 * Takes the transaction's lock on a cart's (or payment collection's) order numbers, top-ups and
 * send-backs: a PostgreSQL advisory lock released when the transaction ends.
 */
async function lockReservations(sharedContext: Context, base: string): Promise<void> {
  const manager = sharedContext.transactionManager as SqlEntityManager
  await manager.execute(`select pg_advisory_xact_lock(hashtext(?))`, [reservationLockKey(base)])
}

/**
 * Takes the transaction's lock on a cart's order numbers (`lockReservations`) and gives the invoice
 * mirror's rows inside that transaction.
 */
async function lockedReservationRows(service: CryptoModuleService, base: string, sharedContext: Context): Promise<ReservationRows> {
  await lockReservations(sharedContext, base)
  return {
    list: async (filters) => (await service.listCryptoInvoices(filters, {}, sharedContext)) as ReservationRow[],
    create: async (data) => service.createCryptoInvoices(data, sharedContext),
    update: async (data) => service.updateCryptoInvoices(data, sharedContext),
    delete: async (id) => {
      await service.deleteCryptoInvoices(id, sharedContext)
    },
  }
}

export default CryptoModuleService
