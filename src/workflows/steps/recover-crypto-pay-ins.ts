import { createHash } from "node:crypto"
import type { ConfigModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { GatewayNotFoundError, type Deposit, type DepositListParams, type Operation, type OperationList, type OperationListParams } from "../../gateway"
import { payInFieldsOfOperation, payInsToRecord, type StoredPayInState } from "../../core/payment/deposits"
import { failureReason } from "../../core/errors"
import { gatewayClientOf, listCryptoProviderEntries } from "../../core/config/provider-entry"
import { resolveCryptoModule } from "../../modules/crypto"
import type { CryptoCallbackDelivery } from "../../modules/crypto/callback-upsert"

/** The cursor of the pay_in operations read (`crypto_sync_cursor.name`): the newest `created_at_utc` a finished read reached. */
export const PAY_IN_CURSOR = "pay_in_operations"
/**
 * A read longer than one run's pages, continued by the next runs (`crypto_sync_cursor.name`): its
 * position is the read's newest `created_at_utc` × PASS_PAGES + the page to go on at, so it only
 * grows, within a read and from one read to the next (`advanceCryptoSyncCursor` keeps the larger).
 */
export const PAY_IN_PASS = "pay_in_operations_pass"
const PASS_PAGES = 1_000_000n

export interface PayInRecoveryLimits {
  /** Operations per page asked (the sandbox's largest is 50, docs/gateway-readings.md). */
  perPage: number
  /** Pages read per run at most; a run that stops there leaves the rest of the read to the next runs. */
  maxPages: number
  /** Read this far behind the cursor again (seconds): pay_ins listed late or out of order. */
  overlapSeconds: number
  /** Deposit-list pages read at most to map addresses to uids (spec §4.10). */
  maxDepositPages: number
  /** pay_ins seen but not completed, behind the cursor, re-read one by one per run at most (spec §4.4). */
  maxOpenReads: number
}

export const DEFAULT_PAY_IN_RECOVERY_LIMITS: PayInRecoveryLimits = { perPage: 50, maxPages: 20, overlapSeconds: 600, maxDepositPages: 20, maxOpenReads: 20 }

/** How long a pay_in seen but not completed is re-read (hours since it was first stored). */
export const OPEN_PAY_IN_HOURS = 72

/** What recovering the pay_ins of one provider entry needs: the gateway's two lists and our rows. */
export interface PayInRecoveryDeps {
  providerId: string
  operations: { list(params: OperationListParams): Promise<OperationList>; retrieve(id: string): Promise<Operation> }
  deposits: { list(params: DepositListParams): Promise<Deposit[]> }
  store: {
    readCursor(name: typeof PAY_IN_CURSOR | typeof PAY_IN_PASS): Promise<string | null>
    advanceCursor(name: typeof PAY_IN_CURSOR | typeof PAY_IN_PASS, position: string): Promise<void>
    /**
     * pay_ins stored in the last OPEN_PAY_IN_HOURS none of whose rows says `completed` (seen, the
     * completion not heard of), with the uid their rows name.
     */
    openPayIns(): Promise<Array<{ txn_id: string; deposit_uid: string | null }>>
    /** The stored pay_in rows (callbacks and earlier recoveries) of these txn_ids. */
    storedStates(txnIds: readonly string[]): Promise<StoredPayInState[]>
    /** Stores the row unless the same reading is stored: its id, or null. */
    insertOnce(delivery: CryptoCallbackDelivery): Promise<string | null>
  }
}

export interface PayInRecoveryResult {
  /** crypto_callback ids of the pay_ins recorded now, to be processed like a delivery. */
  recorded_ids: string[]
  /** pay_in operations read. */
  read: number
  /** Whether the read reached the cursor (or the end of the list) and moved the cursor; else the next run goes on with it. */
  complete: boolean
}

/**
 * Reads the pay_in operations (spec §4.3, `type=pay_in`) from the newest back to the cursor (the
 * newest `created_at_utc` an earlier read reached, less `overlapSeconds`), and records each pay_in the
 * stored callbacks do not show (`payInsToRecord`), linked to the uid of its deposit address
 * (`wallet_hash` → the deposit list, spec §4.10). A row is one atomic insert-if-absent on a hash of
 * (provider, txn_id, status), so a pay_in read again, by this run or another instance, is recorded
 * once; the cursor only moves forward. The list is read newest first (the sandbox's order; the spec
 * does not say): a read stops at the first page entirely behind the cursor.
 * - The first read starts at the install (`now`, less twice `overlapSeconds`): deposits from before
 *   it are the gateway's history, listed in Operations, not money to decide (docs/attention.md).
 * - A read longer than `maxPages` goes on over the next runs (PAY_IN_PASS), a page further each run
 *   (new operations push the rest to later pages, so none is skipped); the cursor moves when it ends.
 * A failed gateway read (refused or unknown) throws before anything is recorded for it, and the
 * cursors stay: the next run reads the same pay_ins again.
 */
export async function recoverPayIns(deps: PayInRecoveryDeps, limits: PayInRecoveryLimits, now: number): Promise<PayInRecoveryResult> {
  let stored = await deps.store.readCursor(PAY_IN_CURSOR)
  if (stored === null) {
    // The first read: the cursor starts at the install, so a read that takes several runs keeps it.
    stored = String(Math.floor(now) - limits.overlapSeconds)
    await deps.store.advanceCursor(PAY_IN_CURSOR, stored)
  }
  const floor = Number(stored) - limits.overlapSeconds
  const passPosition = await deps.store.readCursor(PAY_IN_PASS)
  const pass = passPosition === null ? null : { newest: Number(BigInt(passPosition) / PASS_PAGES), page: Number(BigInt(passPosition) % PASS_PAGES) }
  // An unfinished read (its newest beyond the cursor) goes on where the last run stopped.
  const going = pass !== null && pass.newest > Number(stored) ? pass : null
  const read: Operation[] = []
  let newest: number | null = going?.newest ?? null
  let complete = false
  let page = going?.page ?? 1
  for (const last = page + limits.maxPages; page < last; page += 1) {
    const result = await deps.operations.list({ type: "pay_in", page, limit: limits.perPage })
    let behind = result.operations.length > 0
    for (const operation of result.operations) {
      if (operation.type !== "pay_in") continue
      const created = operation.created_at_utc ?? null
      if (created !== null) newest = newest === null ? created : Math.max(newest, created)
      if (created === null || created >= floor) {
        behind = false
        read.push(operation)
      }
    }
    const meta = result._meta
    const more = meta !== null ? meta.currentPage < meta.pageCount : result.operations.length >= limits.perPage
    if (behind || !more || result.operations.length === 0) {
      complete = true
      break
    }
  }
  const toRecord = payInsToRecord(read, await deps.store.storedStates([...new Set(read.map((operation) => operation.id))]))
  const uids = toRecord.length === 0 ? new Map<string, string>() : await depositUids(deps, toRecord, limits)
  const recorded: string[] = []
  for (const operation of toRecord) {
    const id = await record(deps, operation, operation.wallet_hash ? uids.get(operation.wallet_hash) ?? null : null)
    if (id !== null) recorded.push(id)
  }
  if (complete && newest !== null) {
    await deps.store.advanceCursor(PAY_IN_CURSOR, String(Math.floor(newest)))
  } else if (!complete && newest !== null) {
    await deps.store.advanceCursor(PAY_IN_PASS, String(BigInt(Math.floor(newest)) * PASS_PAGES + BigInt(page)))
  }
  // A pay_in seen pending (by a callback or an earlier read) whose completion callback was lost,
  // now behind the cursor: re-read by id (spec §4.4), its uid from its stored rows.
  const readIds = new Set(read.map((operation) => operation.id))
  const open = (await deps.store.openPayIns()).filter((payIn) => !readIds.has(payIn.txn_id)).slice(0, limits.maxOpenReads)
  for (const payIn of open) {
    let operation: Operation
    try {
      operation = await deps.operations.retrieve(payIn.txn_id)
    } catch (error) {
      // Not an operation of this shop (spec §7, code 111): nothing to read back. Anything else
      // (refused, unknown) is thrown: read again on the next run.
      if (error instanceof GatewayNotFoundError) continue
      throw error
    }
    const [completed] = payInsToRecord([operation], await deps.store.storedStates([payIn.txn_id]))
    if (completed === undefined) continue
    const id = await record(deps, completed, payIn.deposit_uid)
    if (id !== null) recorded.push(id)
  }
  return { recorded_ids: recorded, read: read.length, complete }
}

/** One pay_in reading stored once (an insert-if-absent on provider, txn_id and status). */
function record(deps: PayInRecoveryDeps, operation: Operation, uid: string | null): Promise<string | null> {
  return deps.store.insertOnce({
    provider_id: deps.providerId,
    content_hash: createHash("sha256").update(`pay_in-operation\n${deps.providerId}\n${operation.id}\n${operation.status}`).digest("hex"),
    format: "operation",
    fields: payInFieldsOfOperation(operation, uid),
    ipn_type: "pay_in",
    txn_id: operation.id,
    order_number: null,
    switch_id: null,
    status: operation.status,
  })
}

/** The uid of each deposit address of these pay_ins, from the deposit list (spec §4.10), page by page. */
async function depositUids(deps: PayInRecoveryDeps, operations: readonly Operation[], limits: PayInRecoveryLimits): Promise<Map<string, string>> {
  const wanted = new Set(operations.map((operation) => operation.wallet_hash).filter((hash): hash is string => typeof hash === "string" && hash !== ""))
  const coins = [...new Set(operations.map((operation) => operation.psys_cid).filter((coin): coin is string => typeof coin === "string"))]
  const uids = new Map<string, string>()
  for (let page = 1; page <= limits.maxDepositPages && uids.size < wanted.size; page += 1) {
    const deposits = await deps.deposits.list({ psys_cid: coins, page, limit: limits.perPage })
    for (const deposit of deposits) {
      if (wanted.has(deposit.hash)) uids.set(deposit.hash, deposit.uid)
    }
    if (deposits.length < limits.perPage) break
  }
  return uids
}

/** The recovery's dependencies for one provider entry, from the step's container. */
function payInRecoveryDepsOf(container: MedusaContainer, providerId: string, client: ReturnType<typeof gatewayClientOf>): PayInRecoveryDeps {
  const cryptoModule = resolveCryptoModule(container)
  return {
    providerId,
    operations: client.operations,
    deposits: client.deposits,
    store: {
      readCursor: (name) => cryptoModule.readCryptoSyncCursor(providerId, name),
      advanceCursor: (name, position) => cryptoModule.advanceCryptoSyncCursor(providerId, name, position),
      openPayIns: async () => {
        const since = new Date(Date.now() - OPEN_PAY_IN_HOURS * 3600 * 1000)
        const rows = await cryptoModule.listCryptoCallbacks(
          { provider_id: providerId, ipn_type: "pay_in", created_at: { $gt: since } },
          { select: ["txn_id", "status", "deposit_uid"], take: 1000, order: { created_at: "ASC" } }
        )
        const completed = new Set(rows.filter((row) => row.status === "completed").map((row) => row.txn_id))
        const open = new Map<string, string | null>()
        for (const row of rows) {
          if (row.txn_id !== null && !completed.has(row.txn_id)) open.set(row.txn_id, row.deposit_uid ?? open.get(row.txn_id) ?? null)
        }
        return [...open].map(([txn_id, deposit_uid]) => ({ txn_id, deposit_uid }))
      },
      storedStates: async (txnIds) =>
        txnIds.length === 0
          ? []
          : cryptoModule.listCryptoCallbacks({ provider_id: providerId, ipn_type: "pay_in", txn_id: [...txnIds] }, { select: ["txn_id", "status"] }),
      insertOnce: (delivery) => cryptoModule.storeRecoveredCryptoCallback(delivery),
    },
  }
}

export const recoverCryptoPayInsStepId = "recover-crypto-pay-ins"

/**
 * Deposits whose callbacks were lost (spec §6.2): read back from the operations list of every
 * white-label provider entry (a plain shop has no deposit addresses, spec §4.10). Forward-only and
 * idempotent, nothing to compensate: a recorded pay_in is a fact read from the gateway. One entry
 * failing is logged and read again on the next run; the others go on.
 */
export const recoverCryptoPayInsStep = createStep(recoverCryptoPayInsStepId, async (_input: Record<string, never>, { container }) => {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const entries = listCryptoProviderEntries(container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)).filter((entry) => entry.options.whiteLabel)
  const recorded: string[] = []
  let failed = 0
  const now = Date.now() / 1000
  for (const entry of entries) {
    try {
      const result = await recoverPayIns(payInRecoveryDepsOf(container, entry.providerId, gatewayClientOf(entry.options)), DEFAULT_PAY_IN_RECOVERY_LIMITS, now)
      recorded.push(...result.recorded_ids)
      if (!result.complete) {
        logger.info(`crypto reconciliation: ${entry.providerId}: more pay_in operations than one run reads; the next run goes on with them`)
      }
    } catch (error) {
      failed += 1
      logger.warn(`crypto reconciliation: ${entry.providerId}: the pay_in operations could not be read: ${failureReason(error)}`)
    }
  }
  return new StepResponse({ callback_ids: recorded, failed })
})
