import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { processPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { DemoTestProcessPaymentBodyType } from "../validators"

/**
 * POST /demo-test/process-payment: Medusa's own "payment captured" path, what its webhook
 * subscriber runs for a provider's `captured` webhook (`processPaymentWorkflow`), awaited here so a
 * benchmark can time it against the crypto callback's path to the same captured order.
 */
export const POST = async (req: MedusaRequest<DemoTestProcessPaymentBodyType>, res: MedusaResponse): Promise<void> => {
  const { session_id, amount } = req.validatedBody
  const started = process.hrtime.bigint()
  await processPaymentWorkflow(req.scope).run({ input: { action: "captured", data: { session_id, amount } } })
  res.status(200).json({ ms: Number(process.hrtime.bigint() - started) / 1e6 })
}
