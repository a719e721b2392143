// States the real gateway reaches, played by the sandbox through its control API and seen by the
// plugin over real HTTP: `pending internal` while the gateway moves the money, then, once the
// transfer's time has passed on the gateway's clock, `completed` and the order. The transfer lasts
// longer than this file may run, so the plugin's reading of it cannot come after its end; the test
// ends it by moving the sandbox's clock. (That the sandbox's ticker ends a transfer by itself, with
// no request, is the sandbox's own test: src/sandbox/__tests__/ticker.unit.spec.ts.)
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

const TEST_TIMEOUT_MS = 180_000
jest.setTimeout(TEST_TIMEOUT_MS)

/**
 * How long this file's `pending internal` lasts, in seconds: far longer than a test may run
 * (TEST_TIMEOUT_MS), so it never ends on its own while a test reads it; a test ends it with
 * `advanceClock(TRANSFER_SECONDS)`.
 */
const TRANSFER_SECONDS = 3600

const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_WHITE_LABEL: "true" }, internalTransferSeconds: TRANSFER_SECONDS })

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    describe("a coin with an internal transfer (USDT_TRX)", () => {
      it("shows pending internal while the gateway moves the money, then completed once the transfer's time has passed, and the order is captured", async () => {
        const container: MedusaContainer = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "USDT_TRX" })

        const paid = await gateway.control().pay(txnId)
        await gateway.sandbox.callbacksIdle()
        await callbacksProcessed(container)
        const during = await paymentStatus(api, store)

        // The transfer's time passes on the gateway's clock: the sandbox completes the invoice and calls back.
        await gateway.control().advanceClock(TRANSFER_SECONDS)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const sent = (await gateway.control().callbacks({ txnId })).map((delivery) => delivery.status)
        const after = await paymentStatus(api, store)
        const orderIds = await orderIdsForCart(container, store.cartId)

        expect(paid.status).toBe("pending internal")
        expect(during).toMatchObject({ invoice: { txn_id: txnId, status: "pending internal" } })
        expect(sent).toEqual(["pending internal", "completed"])
        expect(orderIds).toHaveLength(1)
        expect(after).toMatchObject({ order_id: orderIds[0], invoice: { txn_id: txnId, status: "completed", session_status: "captured" } })
      })
    })
  },
})
