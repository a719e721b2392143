import type { Context, InferTypeOf } from "@medusajs/framework/types"
import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/postgresql"
import { generateEntityId, InjectManager, InjectTransactionManager, MedusaContext, MedusaError, MedusaService } from "@medusajs/framework/utils"
import { callbackInsertOnce, callbackUpsert, storedCallbackOf, type CryptoCallbackDelivery, type StoredCryptoCallback } from "./callback-upsert"
import { CryptoAddress } from "./models/crypto-address"
import { CryptoAttention, type CryptoAttentionKind } from "./models/crypto-attention"
import { CryptoBalanceSnapshot } from "./models/crypto-balance-snapshot"
import { CryptoCallback } from "./models/crypto-callback"
import { CryptoExchange } from "./models/crypto-exchange"
import { CryptoInvoice } from "./models/crypto-invoice"
import { CryptoMoneyOutAudit } from "./models/crypto-money-out-audit"
import { CryptoPolicyChange } from "./models/crypto-policy-change"
import { CryptoRateCache } from "./models/crypto-rate-cache"
import { CryptoRefundClaim } from "./models/crypto-refund-claim"
import { CryptoSetting } from "./models/crypto-setting"
import { CryptoSettingChange } from "./models/crypto-setting-change"
import { CryptoSyncCursor } from "./models/crypto-sync-cursor"
import { CryptoWithdrawal } from "./models/crypto-withdrawal"

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
export type CryptoInvoiceRecord = InferTypeOf<typeof CryptoInvoice>
export type CryptoAddressRecord = InferTypeOf<typeof CryptoAddress>
export type CryptoPolicyChangeRecord = InferTypeOf<typeof CryptoPolicyChange>
export type CryptoMoneyOutAuditRecord = InferTypeOf<typeof CryptoMoneyOutAudit>
type Filters<Row> = { [Field in keyof Row]?: Row[Field] | Row[Field][] | null }
type ListConfig = { take?: number; order?: Record<string, "ASC" | "DESC"> }

/** The columns a status move of a withdrawal sets (`moveCryptoWithdrawal`): the status and its decision's. */
const WITHDRAWAL_MOVE_COLUMNS = ["status", "approved_by", "approved_at", "resolution", "resolved_by", "resolved_at", "resolution_note", "active_fingerprint", "error_message"] as const
export type CryptoWithdrawalMove = { status: CryptoWithdrawalRecord["status"] } & Partial<Pick<CryptoWithdrawalRecord, (typeof WITHDRAWAL_MOVE_COLUMNS)[number]>>

/** The module's rows inside one transaction (`inCryptoTransaction`): reads and writes see each other, and commit together. */
export interface CryptoTransaction {
  /** Holds the lock on a cart's (or payment collection's) order numbers, top-ups and send-backs until the transaction ends (a PostgreSQL advisory lock). */
  lockReservations(base: string): Promise<void>
  /** Holds the lock on a coin's withdrawals of a provider entry (its daily limit) until the transaction ends (a PostgreSQL advisory lock). */
  lockMoneyOut(providerId: string, psysCid: string): Promise<void>
  invoices: {
    list(filters: Filters<CryptoInvoiceRecord>, config?: ListConfig): Promise<CryptoInvoiceRecord[]>
    retrieve(id: string): Promise<CryptoInvoiceRecord>
    create(data: Partial<CryptoInvoiceRecord>): Promise<CryptoInvoiceRecord>
    update(data: Partial<CryptoInvoiceRecord> & { id: string }): Promise<CryptoInvoiceRecord>
    delete(id: string): Promise<void>
  }
  attentions: { list(filters: Filters<CryptoAttentionRecord>, config?: ListConfig): Promise<CryptoAttentionRecord[]> }
  withdrawals: {
    list(filters: Filters<CryptoWithdrawalRecord>, config?: ListConfig): Promise<CryptoWithdrawalRecord[]>
    /** Those matching `filters` asked at or after `since` (`requested_at`). */
    listRequestedSince(filters: Filters<CryptoWithdrawalRecord>, since: Date): Promise<CryptoWithdrawalRecord[]>
    create(data: Partial<CryptoWithdrawalRecord>): Promise<CryptoWithdrawalRecord>
  }
}

/**
 * Our own data: verified callback deliveries, the invoice mirror (one row per invoice we create,
 * with its order number and last known state), the currency/rate cache, the merchant's admin
 * settings per provider, withdrawals (cash_out / mass_cash_out, refunds included) with their
 * duplicate guard, exchanges, the "Needs attention" queue, the cursors of the reconciliation's
 * reads of gateway lists, and the money-out policy's data (address book, saved policy changes, audit). Data only: what the rows mean is src/core's business (e.g. the effective
 * options, src/core/config/settings.ts; an order number's reservation,
 * src/core/payment/invoice-reservation.ts), which this module never imports.
 */
class CryptoModuleService extends MedusaService({
  CryptoAddress,
  CryptoAttention,
  CryptoBalanceSnapshot,
  CryptoCallback,
  CryptoExchange,
  CryptoInvoice,
  CryptoMoneyOutAudit,
  CryptoPolicyChange,
  CryptoRateCache,
  CryptoRefundClaim,
  CryptoSetting,
  CryptoSettingChange,
  CryptoSyncCursor,
  CryptoWithdrawal,
}) {
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
   * Runs `work` in one database transaction, with the module's rows bound to it
   * (`CryptoTransaction`): what must be decided and written together, such as an order number, a
   * top-up or a send-back under the lock of their cart (src/core/payment/invoice-reservation.ts,
   * src/core/payment/top-up.ts: top-ups and send-backs). The rules are the caller's; this
   * holds the transaction and the lock.
   */
  @InjectManager()
  async inCryptoTransaction<T>(work: (tx: CryptoTransaction) => Promise<T>, @MedusaContext() sharedContext: Context = {}): Promise<T> {
    return this.inCryptoTransaction_(work, sharedContext)
  }

  @InjectTransactionManager()
  protected async inCryptoTransaction_<T>(work: (tx: CryptoTransaction) => Promise<T>, @MedusaContext() sharedContext: Context = {}): Promise<T> {
    const context = sharedContext
    return work({
      lockReservations: async (base) => {
        const manager = context.transactionManager as SqlEntityManager
        await manager.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`crypto:order-number:${base}`])
      },
      lockMoneyOut: async (providerId, psysCid) => {
        const manager = context.transactionManager as SqlEntityManager
        await manager.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`crypto:money-out:${providerId}:${psysCid}`])
      },
      invoices: {
        list: (filters, config) => this.listCryptoInvoices(filters, config, context),
        retrieve: (id) => this.retrieveCryptoInvoice(id, {}, context),
        create: (data) => this.createCryptoInvoices(data, context),
        update: (data) => this.updateCryptoInvoices(data, context),
        delete: (id) => this.deleteCryptoInvoices(id, context),
      },
      attentions: { list: (filters, config) => this.listCryptoAttentions(filters, config, context) },
      withdrawals: {
        list: (filters, config) => this.listCryptoWithdrawals(filters, config, context),
        listRequestedSince: (filters, since) => this.listCryptoWithdrawals({ ...filters, requested_at: { $gte: since } }, {}, context),
        create: (data) => this.createCryptoWithdrawals(data, context),
      },
    })
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
   * Moves a withdrawal out of status `from` with `to` (its new status and the columns that go with
   * it), in one atomic update: true when this call moved it, false when it was no longer in `from`
   * (another request or instance moved it first). So of two approvals at once, one sends.
   */
  @InjectManager()
  async moveCryptoWithdrawal(id: string, from: CryptoWithdrawalRecord["status"], to: CryptoWithdrawalMove, @MedusaContext() sharedContext: Context = {}): Promise<boolean> {
    const manager = sharedContext.manager as SqlEntityManager
    const columns = WITHDRAWAL_MOVE_COLUMNS.filter((column) => to[column] !== undefined)
    const rows: Array<Record<string, unknown>> = await manager.execute(
      `update "crypto_withdrawal" set ${columns.map((column) => `"${column}" = ?`).join(", ")}, "updated_at" = now() where "id" = ? and "status" = ? and "deleted_at" is null returning "id"`,
      [...columns.map((column) => to[column] ?? null), id, from]
    )
    return rows.length === 1
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
    const attention = await this.updateCryptoAttentions({ id: existing.id, ...openAttentionUpdate(existing, values) })
    return { attention, created: false }
  }
}

/**
 * What an open attention item takes from a new reading: the latest amount and evidence, and what the
 * reading does not know kept from the item (its order, its cart, and the coin resolved earlier for
 * the same coin code: a plain shop's reading may name only a code two coins share, spec §6.1).
 */
export function openAttentionUpdate<T extends Pick<CryptoAttentionRecord, "order_id" | "cart_id" | "psys_cid" | "currency">>(
  existing: Pick<CryptoAttentionRecord, "order_id" | "cart_id" | "psys_cid" | "currency">,
  values: T
): T {
  const sameCode = values.currency !== null && existing.currency !== null && values.currency.toUpperCase() === existing.currency.toUpperCase()
  return {
    ...values,
    order_id: values.order_id ?? existing.order_id,
    cart_id: values.cart_id ?? existing.cart_id,
    psys_cid: values.psys_cid ?? (sameCode ? existing.psys_cid : null),
  }
}

export default CryptoModuleService
