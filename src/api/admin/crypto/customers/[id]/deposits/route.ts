import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { payInOf, totalPayIns } from "../../../../../../core/payment/deposits"
import { toMedusaError } from "../../../../../../core/errors"
import { toWire } from "../../../../../../core/money"
import { resolveCryptoProvider } from "../../../../../../core/config/provider-entry"
import { GatewayApiError, GatewayErrorCode } from "../../../../../../gateway"
import { resolveCryptoModule } from "../../../../../../modules/crypto"
import type { AdminCryptoCustomerDepositsResponse } from "../../../types"

/** The most pay_in callbacks read for one customer (newest first); the totals cover these. */
const MAX_PAY_INS = 500

/**
 * GET /admin/crypto/customers/:id/deposits — a Medusa customer's deposit addresses (white-label,
 * spec §4.10; the customer id is the deposit `uid`), the verified pay_ins to them (spec §6.2) and
 * the totals per coin as decimal strings. `addresses_error` says why the addresses could not be
 * read (e.g. a shop without white-label) while the recorded pay_ins are still shown.
 */
export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse<AdminCryptoCustomerDepositsResponse>) => {
  const customerId = req.params.id
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "customer", fields: ["id"], filters: { id: customerId } })
  if (data.length === 0) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Customer ${customerId} was not found`)
  }
  const [rows, count] = await resolveCryptoModule(req.scope).listAndCountCryptoCallbacks(
    { ipn_type: "pay_in", deposit_uid: customerId },
    { take: MAX_PAY_INS, order: { created_at: "DESC" } }
  )
  const payIns = rows.map(payInOf)

  let addresses: AdminCryptoCustomerDepositsResponse["addresses"] = []
  let addressesError: string | null = null
  const { client } = await resolveCryptoProvider(req.scope)
  try {
    addresses = toWire(await client.deposits.list({ uid: customerId, limit: 50 }))
  } catch (error) {
    if (error instanceof GatewayApiError && error.code === GatewayErrorCode.WHITE_LABEL_DISABLED) {
      addressesError = "Deposit addresses need white-label processing, which is off for this shop"
    } else {
      addressesError = toMedusaError(error, "Listing the customer's deposit addresses").message
    }
  }
  res.json({ customer_id: customerId, addresses, addresses_error: addressesError, pay_ins: payIns, pay_in_count: count, totals: totalPayIns(payIns) })
}
