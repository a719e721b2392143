// States the real gateway reaches, played by the sandbox through its control API and seen by the
// plugin over real HTTP: `pending internal` that lasts a real TRANSFER_SECONDS and ends by
// itself (the sandbox's ticker moves it and sends the callback without any request), then the order.
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import {
  callbacksDeliveredAndProcessed,
  callbacksProcessed,
  createCryptoStore,
  orderIdsForCart,
  paymentStatus,
  startCryptoCheckout,
  useTestGateway,
} from "./helpers"

jest.setTimeout(180_000)

/**
 * How long this file's `pending internal` lasts, in real seconds: long enough that the plugin's
 * reading of it comes while it lasts on a loaded CI machine (2 s, the default, did not always), short
 * enough that the wait for its end stays brief.
 */
const TRANSFER_SECONDS = 15

const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_WHITE_LABEL: "true" }, internalTransferSeconds: TRANSFER_SECONDS })

/**
 * Waits, without any request to the sandbox (each request would move its state: it ticks), until the
 * sandbox has queued a `status` callback for `txnId` on its own. Reads the running sandbox's delivery
 * list in this process; bounded, because a loaded CI machine can delay the ticker by seconds.
 */
async function queuedAlone(txnId: string, status: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!gateway.sandbox.deliveries().some((delivery) => delivery.ref === txnId && delivery.status === status)) {
    if (Date.now() > deadline) {
      throw new Error(`the sandbox queued no "${status}" callback for ${txnId} within ${timeoutMs} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    describe("a coin with an internal transfer (USDT_TRX)", () => {
      it("shows pending internal while the gateway moves the money, then the sandbox completes it by itself and the order is captured", async () => {
        const container: MedusaContainer = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "USDT_TRX" })

        const paid = await gateway.control().pay(txnId)
        await gateway.sandbox.callbacksIdle()
        await callbacksProcessed(container)
        const during = await paymentStatus(api, store)

        // No request reaches the sandbox meanwhile: its ticker ends the transfer and sends the callback.
        await queuedAlone(txnId, "completed")
        const sentAlone = (await gateway.control().callbacks({ txnId })).map((delivery) => delivery.status)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const after = await paymentStatus(api, store)
        const orderIds = await orderIdsForCart(container, store.cartId)

        expect(paid.status).toBe("pending internal")
        expect(during).toMatchObject({ invoice: { txn_id: txnId, status: "pending internal" } })
        expect(sentAlone).toEqual(["pending internal", "completed"])
        expect(orderIds).toHaveLength(1)
        expect(after).toMatchObject({ order_id: orderIds[0], invoice: { txn_id: txnId, status: "completed", session_status: "captured" } })
      })
    })
  },
})
