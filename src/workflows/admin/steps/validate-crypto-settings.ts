import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toMedusaError } from "../../../core/errors"
import { resolveCryptoProvider } from "../../../core/config/provider-entry"
import type { CryptoSettingsPatch } from "./upsert-crypto-settings"

export const validateCryptoSettingsStepId = "validate-crypto-settings"

/** Accepted and default coins, and the order rules' coins, must be coins the gateway lists for the shop (spec §4.8). */
export const validateCryptoSettingsStep = createStep(validateCryptoSettingsStepId, async (patch: CryptoSettingsPatch, { container }) => {
  const ruleCoins = (patch.order_rules ?? []).flatMap((rule) => rule.coins)
  const coins = [...(patch.accepted_coins ?? []), ...(patch.default_coin ? [patch.default_coin] : []), ...ruleCoins]
  if (coins.length === 0) {
    return new StepResponse(patch)
  }
  const { client } = await resolveCryptoProvider(container, patch.provider_id)
  let listed: Set<string>
  try {
    listed = new Set((await client.currencies.list()).map((currency) => currency.cid))
  } catch (error) {
    throw toMedusaError(error, "Checking the coins against the gateway")
  }
  const unknownAccepted = (patch.accepted_coins ?? []).filter((coin) => !listed.has(coin))
  if (unknownAccepted.length > 0) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `The gateway does not list ${unknownAccepted.join(", ")} (field: accepted_coins)`)
  }
  if (patch.default_coin && !listed.has(patch.default_coin)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `The gateway does not list ${patch.default_coin} (field: default_coin)`)
  }
  for (const [index, rule] of (patch.order_rules ?? []).entries()) {
    const at = rule.coins.findIndex((coin) => !listed.has(coin))
    if (at >= 0) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `The gateway does not list ${rule.coins[at]} (field: order_rules[${index}].coins[${at}])`)
    }
  }
  return new StepResponse(patch)
})
