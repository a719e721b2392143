import type { InvoiceAssessment } from "./invoice-chain"
import type { StatusPolicy } from "./payment-state"

/**
 * One gateway read per callback (docs/architecture.md#one-gateway-read-per-callback).
 *
 * The sync workflow reads an invoice chain from the gateway once (`assessCryptoInvoiceStep`, under
 * the invoice's lock), then moves money through Medusa's `processPaymentWorkflow` /
 * `completeCartWorkflow`, which call the provider's `authorizePayment` and `capturePayment`; each
 * of those would read the gateway again. While the apply step runs Medusa's workflows, the reading
 * is lent here and the provider takes it instead of asking the gateway twice more.
 *
 * This is a hand-over inside one process, not shared state: another instance never needs it (it
 * reads the gateway), an entry lives only until the apply step ends (`returnAssessment`) and at most
 * `HANDOFF_TTL_MS`, and it is used only under the same status policy it was made with.
 */
export const HANDOFF_TTL_MS = 30_000

interface Lent {
  assessment: InvoiceAssessment
  policy: StatusPolicy
  expires: number
}

const lent = new Map<string, Lent>()

const samePolicy = (a: StatusPolicy, b: StatusPolicy): boolean =>
  a.orderOnDetection === b.orderOnDetection && a.underpaidTolerancePercent.eq(b.underpaidTolerancePercent)

/** The assess step: the reading of the chain that starts at `txnId`, for the apply step's Medusa workflows. */
export function lendAssessment(txnId: string, assessment: InvoiceAssessment, policy: StatusPolicy, now: number = Date.now()): void {
  // Readings whose apply step never ran (a failed workflow) go here; the map holds a few at most.
  for (const [key, entry] of lent) {
    if (now >= entry.expires) lent.delete(key)
  }
  lent.set(txnId, { assessment, policy, expires: now + HANDOFF_TTL_MS })
}

/** The provider: the lent reading of `txnId` made under `policy`, if one is current; else it reads the gateway. */
export function borrowAssessment(txnId: string, policy: StatusPolicy, now: number = Date.now()): InvoiceAssessment | undefined {
  const entry = lent.get(txnId)
  if (entry === undefined) return undefined
  if (now >= entry.expires) {
    lent.delete(txnId)
    return undefined
  }
  return samePolicy(entry.policy, policy) ? entry.assessment : undefined
}

/** The apply step, once Medusa's workflows are done (or failed): later calls read the gateway again. */
export function returnAssessment(txnId: string): void {
  lent.delete(txnId)
}
