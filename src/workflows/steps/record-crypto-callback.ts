import type { ILockingModule } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../modules/crypto"
import type CryptoModuleService from "../../modules/crypto/service"

export interface RecordCryptoCallbackStepInput {
  provider_id: string
  content_hash: string
  format: "form" | "json"
  /** The verified fields (spec §6.3), `verify_hash` excluded. */
  fields: Record<string, unknown>
  ipn_type: string | null
  txn_id: string | null
  order_number: string | null
  switch_id: string | null
  status: string | null
}

export interface RecordedCryptoCallback {
  callback_id: string
  /** The same verified content was stored before (a redelivery). */
  duplicate: boolean
  /** The earlier delivery was already processed: nothing left to do. */
  processed: boolean
}

export const recordCryptoCallbackStepId = "record-crypto-callback"

/**
 * Stores one verified delivery, unique on its content hash. A redelivery (same content, any
 * transport) finds the stored row and counts itself. Deliveries of one content are serialised by
 * Medusa's locking module (so the count is exact); should two processes with separate in-memory
 * lock providers still race, the unique index stops the second insert and it falls back to the
 * winner's row.
 */
export const recordCryptoCallbackStep = createStep(
  recordCryptoCallbackStepId,
  async (input: RecordCryptoCallbackStepInput, { container }) => {
    const locking = container.resolve<ILockingModule>(Modules.LOCKING)
    const { recorded, created_id } = await locking.execute(
      `crypto-callback:${input.content_hash}`,
      () => record(container.resolve<CryptoModuleService>(CRYPTO_MODULE), input),
      { timeout: 30 }
    )
    return new StepResponse(recorded, { created_id })
  },
  async (compensation, { container }) => {
    if (compensation === undefined || compensation.created_id === null) {
      return
    }
    await container.resolve<CryptoModuleService>(CRYPTO_MODULE).deleteCryptoCallbacks(compensation.created_id)
  }
)

/** What was recorded, and the row to delete should the workflow be compensated (null: none created). */
interface RecordResult {
  recorded: RecordedCryptoCallback
  created_id: string | null
}

async function record(cryptoModule: CryptoModuleService, input: RecordCryptoCallbackStepInput): Promise<RecordResult> {
  const findExisting = async () => {
    const [existing] = await cryptoModule.listCryptoCallbacks({ content_hash: input.content_hash }, { take: 1 })
    return existing
  }
  let existing = await findExisting()
  if (existing === undefined) {
    try {
      // pay_in (spec §6.2): the deposit's uid as a column, so a customer's deposits are one query.
      const depositUid = input.ipn_type === "pay_in" && typeof input.fields.deposit_uid === "string" ? input.fields.deposit_uid : null
      const created = await cryptoModule.createCryptoCallbacks({ ...input, delivery_count: 1, deposit_uid: depositUid })
      return { recorded: { callback_id: created.id, duplicate: false, processed: false }, created_id: created.id }
    } catch (error) {
      existing = await findExisting()
      if (existing === undefined) {
        throw error
      }
    }
  }
  await cryptoModule.updateCryptoCallbacks({ id: existing.id, delivery_count: existing.delivery_count + 1 })
  return { recorded: { callback_id: existing.id, duplicate: true, processed: existing.processed_at !== null }, created_id: null }
}
