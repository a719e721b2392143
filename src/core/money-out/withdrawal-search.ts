import type { MedusaContainer } from "@medusajs/framework/types"
import type { GatewayClient } from "../../gateway"
import { resolveCryptoModule, type CryptoModuleService } from "../../modules/crypto"
import { toMedusaError } from "../errors"
import { resolveCryptoProvider } from "../config/provider-entry"
import { decideReconciliation, recipientsOf, type SearchedOperation, type WithdrawalCandidate, type WithdrawalToMatch } from "./withdrawal"

/** Pages of the operations list searched for an unsure withdrawal (50 per page, newest first). */
const SEARCH_PAGES = 4

/** The fields of a stored withdrawal the search reads. */
export interface StoredWithdrawal {
  id: string
  type: string
  psys_cid: string
  recipients: unknown
  requested_at: Date | string
}

export function withdrawalToMatch(withdrawal: StoredWithdrawal): WithdrawalToMatch {
  return { id: withdrawal.id, type: withdrawal.type, psys_cid: withdrawal.psys_cid, recipients: recipientsOf(withdrawal.recipients), requested_at: new Date(withdrawal.requested_at) }
}

/** The newest operations of the withdrawal's type and coin (spec §4.3), each with the withdrawal that owns it. */
export async function searchOperations(service: CryptoModuleService, client: GatewayClient, withdrawal: StoredWithdrawal): Promise<SearchedOperation[]> {
  const searched: SearchedOperation[] = []
  for (let page = 1; page <= SEARCH_PAGES; page++) {
    const list = await client.operations.list({ type: withdrawal.type === "mass_cash_out" ? "mass_cash_out" : "cash_out", currency: withdrawal.psys_cid, page, limit: 50 })
    const ids = list.operations.map((operation) => operation.id)
    const owners = ids.length ? await service.listCryptoWithdrawals({ operation_id: ids }, { select: ["id", "operation_id"] }) : []
    const ownerOf = new Map(owners.map((owner) => [owner.operation_id, owner.id]))
    for (const operation of list.operations) {
      searched.push({ operation, owner_id: ownerOf.get(operation.id) ?? null })
    }
    const meta = list._meta
    if (list.operations.length === 0 || (meta !== null && meta.currentPage >= meta.pageCount)) break
  }
  return searched
}

/**
 * The operations that could be this unsure withdrawal, for the merchant to choose from (read only:
 * nothing is recorded).
 */
export async function listWithdrawalCandidates(scope: MedusaContainer, withdrawal: StoredWithdrawal & { provider_id: string }): Promise<WithdrawalCandidate[]> {
  const service = resolveCryptoModule(scope)
  const { client } = await resolveCryptoProvider(scope, withdrawal.provider_id)
  try {
    return decideReconciliation(withdrawalToMatch(withdrawal), await searchOperations(service, client, withdrawal)).candidates
  } catch (error) {
    throw toMedusaError(error, "Looking for the withdrawal's operation")
  }
}
