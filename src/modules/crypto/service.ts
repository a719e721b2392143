import { MedusaService } from "@medusajs/framework/utils"
import { CryptoCallback } from "./models/crypto-callback"
import { CryptoInvoice } from "./models/crypto-invoice"
import { CryptoRateCache } from "./models/crypto-rate-cache"
// Admin (issue 5): withdrawals and the merchant's settings.
import { CryptoSetting } from "./models/crypto-setting"
import { CryptoWithdrawal } from "./models/crypto-withdrawal"
import { mergeCryptoSettings, type EditableCryptoOptions } from "./settings"

/** Our own data: callback deliveries, the invoice mirror, and the rate cache. */
class CryptoModuleService extends MedusaService({
  CryptoCallback,
  CryptoInvoice,
  CryptoRateCache,
  CryptoSetting,
  CryptoWithdrawal,
}) {
  /**
   * Admin (issue 5): the options the next checkout uses, `defaults` (the provider's medusa-config
   * options) with the settings the merchant saved in the admin on top. Read from the database on
   * every call, so a change reaches every server instance without a restart.
   */
  async getEffectiveSettings<T extends EditableCryptoOptions>(providerId: string, defaults: T): Promise<T> {
    const [stored] = await this.listCryptoSettings({ provider_id: providerId }, { take: 1 })
    return mergeCryptoSettings(defaults, stored)
  }
}

export default CryptoModuleService
