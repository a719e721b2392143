import type CryptoModuleService from "../../modules/crypto/service"

/**
 * Marks a stored delivery as handled, with what handling did (`applied`, `unchanged`, `recorded`...).
 * Not a step of its own: the sync's last step of ours calls it, `find-crypto-invoice-group` for a
 * delivery with no invoice to sync (a `pay_in`, an unknown invoice), `apply-crypto-invoice` once the
 * invoice is applied (docs/architecture.md#the-callback-path). Forward-only, idempotent in state: a
 * second call leaves the delivery processed with the same outcome and stamps the time again.
 */
export async function markCryptoCallbackProcessed(
  cryptoModule: Pick<CryptoModuleService, "updateCryptoCallbacks">,
  callbackId: string,
  outcome: string
): Promise<void> {
  await cryptoModule.updateCryptoCallbacks({ id: callbackId, processed_at: new Date(), outcome, last_error: null })
}
