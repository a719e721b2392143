import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { resolveCryptoModule } from "../../../../../modules/crypto"
import type { AdminCryptoDepositCallbacksQueryType } from "../../validators"

/** GET /admin/crypto/deposits/callbacks — the verified `pay_in` callbacks recorded by the callback route (spec §6.2). */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, AdminCryptoDepositCallbacksQueryType>, res: MedusaResponse) => {
  const { uid, limit, offset } = req.validatedQuery
  const [rows, count] = await resolveCryptoModule(req.scope).listAndCountCryptoCallbacks(
    { ipn_type: "pay_in" },
    { take: uid ? 1000 : limit, skip: uid ? 0 : offset, order: { created_at: "DESC" } }
  )
  const fieldsOf = (row: { fields: unknown }): Record<string, unknown> => (typeof row.fields === "object" && row.fields !== null ? (row.fields as Record<string, unknown>) : {})
  const shaped = rows.map((row) => {
    const fields = fieldsOf(row)
    const pick = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : null)
    return {
      id: row.id,
      received_at: row.created_at,
      delivery_count: row.delivery_count,
      status: row.status,
      txn_id: row.txn_id,
      deposit_uid: pick("deposit_uid"),
      psys_cid: pick("psys_cid"),
      currency: pick("currency"),
      amount: pick("amount"),
      confirmations: pick("confirmations"),
      wallet_hash: pick("wallet_hash"),
      tx_urls: Array.isArray(fields.tx_urls) ? fields.tx_urls.filter((u): u is string => typeof u === "string") : [],
    }
  })
  const filtered = uid ? shaped.filter((c) => c.deposit_uid === uid) : shaped
  res.json({ callbacks: uid ? filtered.slice(offset, offset + limit) : filtered, count: uid ? filtered.length : count, limit, offset })
}
