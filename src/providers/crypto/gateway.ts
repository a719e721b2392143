import { Decimal } from "decimal.js"
import { GatewayClient, type Operation } from "../../gateway"
import type { ResolvedCryptoOptions } from "./options"
import { mapInvoiceChain, type InvoiceObservation, type SessionOutcome, type StatusPolicy } from "./status"

/** The client for one provider configuration. Each caller builds its own (no shared state). */
export function createGatewayClient(options: ResolvedCryptoOptions): GatewayClient {
  // Per attempt (default 20 s): initiatePayment runs while the shopper waits at checkout.
  return new GatewayClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: options.gatewayTimeoutMs })
}

export function statusPolicy(options: ResolvedCryptoOptions): StatusPolicy {
  return { orderOnDetection: options.orderOnDetection, underpaidTolerancePercent: options.underpaidTolerancePercent }
}

/** Amounts a verified callback told us about one invoice (spec §6.1: `amount`, `invoice_total_sum`). */
export interface CallbackAmounts {
  received?: Decimal | undefined
  expected?: Decimal | undefined
}

/**
 * Reads an invoice and the invoices a currency switch created from it (spec §2.1: `child_ids`;
 * spec §4.4), plus `relatedIds` known from verified callbacks. The first element is the invoice
 * itself.
 */
export async function readInvoiceChain(client: GatewayClient, txnId: string, relatedIds: readonly string[] = []): Promise<Operation[]> {
  const first = await client.operations.retrieve(txnId)
  const others = new Set([...(first.child_ids ?? []), ...relatedIds])
  others.delete(txnId)
  const children = await Promise.all([...others].map((id) => client.operations.retrieve(id)))
  return [first, ...children]
}

/**
 * One operation as the status map sees it. The operation's own amounts win (spec §2.2: `amount`
 * is what was received, `sum` what the invoice asks including a client-paid commission); a shop
 * without white-label gets no amounts there (spec §2.2), so the last verified callback's amounts
 * fill in (spec §6.1).
 */
export function observationOf(operation: Operation, hint: CallbackAmounts | undefined): InvoiceObservation {
  const received = operation.amount ?? operation.actual_sum ?? hint?.received ?? undefined
  const expected = operation.sum ?? operation.params?.amount ?? hint?.expected ?? undefined
  return { status: operation.status, received: received ?? undefined, expected: expected ?? undefined }
}

export interface ChainDecision {
  outcome: SessionOutcome
  /** The invoice of the chain that decided. */
  active: Operation
  observation: InvoiceObservation
}

export function decideInvoiceChain(
  chain: readonly Operation[],
  hints: ReadonlyMap<string, CallbackAmounts>,
  policy: StatusPolicy
): ChainDecision {
  const observations = chain.map((operation) => observationOf(operation, hints.get(operation.id)))
  const { outcome, index } = mapInvoiceChain(observations, policy)
  const at = index >= 0 ? index : 0
  return { outcome, active: chain[at], observation: observations[at] }
}
