import { MedusaService } from "@medusajs/framework/utils"
import { CryptoCallback } from "./models/crypto-callback"
import { CryptoInvoice } from "./models/crypto-invoice"
import { CryptoRateCache } from "./models/crypto-rate-cache"
import { CryptoSetting } from "./models/crypto-setting"
import { CryptoWithdrawal } from "./models/crypto-withdrawal"

/**
 * Our own data: verified callback deliveries, the invoice mirror (one row per invoice we create,
 * with its order number and last known state), the currency/rate cache, the merchant's admin
 * settings per provider, and withdrawals (cash_out / mass_cash_out, refunds included) with their
 * duplicate guard. Data only: what the rows mean is src/core's business (e.g. the effective
 * options, src/core/settings.ts).
 */
class CryptoModuleService extends MedusaService({
  CryptoCallback,
  CryptoInvoice,
  CryptoRateCache,
  CryptoSetting,
  CryptoWithdrawal,
}) {}

export default CryptoModuleService
