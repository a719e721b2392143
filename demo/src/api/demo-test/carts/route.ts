import { randomUUID } from "node:crypto"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import {
  addShippingMethodToCartWorkflow,
  createCartWorkflow,
  createPaymentCollectionForCartWorkflow,
  createPaymentSessionsWorkflow,
} from "@medusajs/medusa/core-flows"
import type { DemoTestCartsBodyType } from "../validators"
// The demo's shopper, as the scripted checkout (scripts/demo-checkout.js) fills in the same address.
import address from "../../../lib/shopper-address.json"

/**
 * POST /demo-test/carts: `count` carts ready to pay, as a storefront leaves them (item, addresses,
 * shipping, a payment collection and, with `provider_id`, a payment session), made in this process so
 * that a load test can have hundreds quickly. Answers `{ carts: [{ cart_id, payment_collection_id,
 * session_id, amount, data }] }`; `amount` is a decimal string, `data` the session data (the gateway
 * invoice for the crypto provider); without `provider_id` the last three are null.
 */
export const POST = async (req: MedusaRequest<DemoTestCartsBodyType>, res: MedusaResponse): Promise<void> => {
  const body = req.validatedBody
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)

  const makeOne = async () => {
    const { result: cart } = await createCartWorkflow(req.scope).run({
      input: {
        region_id: body.region_id,
        sales_channel_id: body.sales_channel_id,
        // One shopper per cart: Medusa creates a guest customer per email, and carts made at once
        // with one email race on that customer.
        email: `shopper-${randomUUID()}@example.com`,
        items: [{ variant_id: body.variant_id, quantity: 1 }],
        shipping_address: address,
        billing_address: address,
      },
    })
    await addShippingMethodToCartWorkflow(req.scope).run({
      input: { cart_id: cart.id, options: [{ id: body.shipping_option_id }] },
    })
    await createPaymentCollectionForCartWorkflow(req.scope).run({ input: { cart_id: cart.id } })
    const {
      data: [withCollection],
    } = await query.graph({ entity: "cart", fields: ["id", "payment_collection.id"], filters: { id: cart.id } })
    const collectionId = withCollection.payment_collection?.id
    if (!collectionId) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `cart ${cart.id} has no payment collection`)
    }
    if (body.provider_id === undefined) {
      return { cart_id: cart.id, payment_collection_id: collectionId, session_id: null, amount: null, data: null }
    }
    const { result: session } = await createPaymentSessionsWorkflow(req.scope).run({
      input: { payment_collection_id: collectionId, provider_id: body.provider_id, data: body.data ?? {} },
    })
    return {
      cart_id: cart.id,
      payment_collection_id: collectionId,
      session_id: session.id,
      amount: MathBN.convert(session.amount).toFixed(),
      data: session.data,
    }
  }

  const carts: Awaited<ReturnType<typeof makeOne>>[] = []
  let next = 0
  const lanes = Array.from({ length: Math.min(body.concurrency, body.count) }, async () => {
    while (next < body.count) {
      next += 1
      carts.push(await makeOne())
    }
  })
  await Promise.all(lanes)
  res.status(200).json({ carts })
}
