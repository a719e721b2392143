// Money out, the cases of issue 17: no payment sent twice, no bad amount reaches the gateway
// (docs/money-out.md). The sandbox is driven only through its typed control client.
import { randomBytes } from "node:crypto"
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Decimal } from "decimal.js"
import { resolveCryptoModule } from "../../src/modules/crypto"
import {
  callbacksDeliveredAndProcessed,
  createCryptoStore,
  ethAddress,
  newKey,
  orderIdsForCart,
  orderPaidInCrypto,
  requestFailure,
  startCryptoCheckout,
  useAdminAuth,
  useSavedAddresses,
  useTestGateway,
  withdrawal,
} from "./helpers"

jest.setTimeout(300_000)

const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_GATEWAY_TIMEOUT_MS: "3000" }, plainShop: true })

const btcAddress = () => `bc1q${randomBytes(19).toString("hex")}`

/** Operations of `type` in `coin` at the gateway (the sandbox) that pay `address`, whatever our database says. */
async function operationsTo(address: string, type: "cash_out" | "mass_cash_out" = "cash_out", coin = "ETH"): Promise<number> {
  let count = 0
  for await (const operation of gateway.client().operations.iterate({ type, currency: coin, limit: 50 })) {
    if (operation.wallet_hash === address || (operation.sendmany ?? {})[address] !== undefined) count += 1
  }
  return count
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    const auth = useAdminAuth(getContainer)
    useSavedAddresses(api)
    const recordedUnder = async (key: string) => (await resolveCryptoModule(getContainer()).listCryptoWithdrawals({ idempotency_key: key })).length

    describe("every amount is checked before the gateway is called", () => {
      it("refuses a withdrawal amount with 40 decimal places, naming the field, and records and sends nothing", async () => {
        const address = ethAddress()
        const body = withdrawal(address, `0.${"1".repeat(40)}`)
        const { status, message } = await requestFailure(api.post("/admin/crypto/withdrawals", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("recipients[0].amount: at most 18 decimal places for ETH")
        expect(await recordedUnder(body.idempotency_key)).toBe(0)
        expect(await operationsTo(address)).toBe(0)
      })

      it("refuses a mass payout line beyond the coin's decimal places, naming the line, and records and sends nothing", async () => {
        const recipients = [btcAddress(), btcAddress(), btcAddress()].map((address, index) => ({ address, amount: index === 2 ? "0.000000011" : "0.0001" }))
        const body = { idempotency_key: newKey(), psys_cid: "BTC", recipients, fee_plan: "normal" }
        const { status, message } = await requestFailure(api.post("/admin/crypto/withdrawals", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("recipients[2].amount: at most 8 decimal places for BTC")
        expect(message).not.toContain("recipients[0]")
        expect(await recordedUnder(body.idempotency_key)).toBe(0)
        expect(await operationsTo(recipients[0].address, "mass_cash_out", "BTC")).toBe(0)
      })

      it("refuses an amount with a sign or an exponent, naming the field", async () => {
        for (const amount of ["-0.01", "1e-2", "+1"]) {
          const { status, message } = await requestFailure(api.post("/admin/crypto/withdrawals", withdrawal(ethAddress(), amount), auth))
          expect(status).toBe(400)
          expect(message).toContain("amount")
        }
      })

      it("refuses an exchange amount beyond its coin's decimal places and records nothing", async () => {
        const key = newKey()
        const body = { idempotency_key: key, from_currency: "ETH", to_currency: "BTC", from_amount: `1.${"0".repeat(17)}12`, to_address: btcAddress(), confirmed: true }
        const { status, message } = await requestFailure(api.post("/admin/crypto/exchanges", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("from_amount: at most 18 decimal places for ETH")
        expect(await resolveCryptoModule(getContainer()).listCryptoExchanges({ idempotency_key: key })).toEqual([])
      })

      it("refuses an order refund amount beyond the currency's decimals, naming the field, and records and sends nothing", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await api.post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const address = ethAddress()
        const body = { idempotency_key: newKey(), order_id: orderId, amount: "4.251", rate: quoted.quote.rate, address }
        const { status, message } = await requestFailure(api.post("/admin/crypto/refunds", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("amount: at most 2 decimal places for EUR")
        expect(await recordedUnder(body.idempotency_key)).toBe(0)
        expect(await operationsTo(address)).toBe(0)
      })
    })

    describe("a withdrawal the gateway answers 201 with status error (spec §2.3)", () => {
      /** The next withdraw request of the shop is answered 201 `status: "error"` with a readable operation. */
      const failNextWithdrawal = () => gateway.control().failNextWithdrawals({ count: 1 })

      it("keeps the duplicate guard and shows the operation read back as evidence", async () => {
        await failNextWithdrawal()
        const { status, data } = await api.post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        expect(status).toBe(200)
        const operationId = data.withdrawal.operation_id
        expect(operationId).toEqual(expect.any(String))
        expect(data.withdrawal).toMatchObject({ status: "error", gateway_status: "error", active_fingerprint: expect.any(String), resolution: null })
        expect(data.withdrawal.error_message).toContain(`Failed at the gateway: operation ${operationId}, status error`)
        expect(data.withdrawal.gateway_evidence).toMatchObject({
          operation_id: operationId,
          answered_status: "error",
          answered_at: expect.any(String),
          reads: [{ ok: true, status: "error", at: expect.any(String) }],
        })
        const detail = await api.get(`/admin/crypto/withdrawals/${data.withdrawal.id}`, auth)
        expect(detail.data.withdrawal).toMatchObject({ status: "error", active_fingerprint: expect.any(String), gateway_evidence: { operation_id: operationId } })
      })

      it("answers the same payment again 409, naming the earlier withdrawal and its operation, and sends nothing", async () => {
        const address = ethAddress()
        await failNextWithdrawal()
        const first = await api.post("/admin/crypto/withdrawals", withdrawal(address), auth)
        const again = await requestFailure(api.post("/admin/crypto/withdrawals", withdrawal(address), auth))
        expect(again.status).toBe(409)
        expect(again.message).toContain(first.data.withdrawal.id)
        expect(again.message).toContain(first.data.withdrawal.operation_id)
        expect(await operationsTo(address)).toBe(1)
      })

      it("allows the same payment again only on the merchant's decision, with a note, recording who and when", async () => {
        const address = ethAddress()
        await failNextWithdrawal()
        const first = await api.post("/admin/crypto/withdrawals", withdrawal(address), auth)
        const resolvePath = `/admin/crypto/withdrawals/${first.data.withdrawal.id}/resolve`
        const noNote = await requestFailure(api.post(resolvePath, { resolution: "failed" }, auth))
        expect(noNote).toMatchObject({ status: 400, message: expect.stringContaining("note") })
        expect((await requestFailure(api.post(resolvePath, { resolution: "not_sent", note: "checked" }, auth))).status).toBe(400)

        const note = "operation in error at the gateway, balance not debited"
        const { data } = await api.post(resolvePath, { resolution: "failed", note }, auth)
        expect(data.withdrawal).toMatchObject({
          status: "error",
          resolution: "failed",
          resolution_note: note,
          resolved_by: expect.stringMatching(/^user_/),
          resolved_at: expect.any(String),
          active_fingerprint: null,
          gateway_evidence: { operation_id: first.data.withdrawal.operation_id },
        })
        const again = await api.post("/admin/crypto/withdrawals", withdrawal(address), auth)
        expect(again.data.withdrawal.status).toBe("completed")
        expect(await operationsTo(address)).toBe(2)
      })

      it("reads the failed operation again on Check status, adding the read to the evidence and keeping the guard", async () => {
        await failNextWithdrawal()
        const first = await api.post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        const { data } = await api.post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/reconcile`, {}, auth)
        expect(data.withdrawal).toMatchObject({ status: "error", active_fingerprint: expect.any(String) })
        expect(data.withdrawal.gateway_evidence.reads).toHaveLength(2)
      })

      it("keeps the guard of a mass payout answered with status error", async () => {
        const recipients = [ethAddress(), ethAddress()].map((address) => ({ address, amount: "0.001" }))
        const body = () => ({ idempotency_key: newKey(), psys_cid: "ETH", recipients, fee_plan: "normal" })
        await failNextWithdrawal()
        const first = await api.post("/admin/crypto/withdrawals", body(), auth)
        expect(first.data.withdrawal).toMatchObject({ type: "mass_cash_out", status: "error", active_fingerprint: expect.any(String) })
        const again = await requestFailure(api.post("/admin/crypto/withdrawals", body(), auth))
        expect(again.status).toBe(409)
        expect(again.message).toContain(first.data.withdrawal.id)
        expect(await operationsTo(recipients[0].address, "mass_cash_out")).toBe(1)
      })

      it("holds an order refund's value and refuses another refund of the order with 409 until the merchant decides", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await api.post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const refund = (address: string) => ({ idempotency_key: newKey(), order_id: orderId, amount: "4.25", rate: quoted.quote.rate, address })
        await failNextWithdrawal()
        const first = await api.post("/admin/crypto/refunds", refund(ethAddress()), auth)
        expect(first.data.withdrawal).toMatchObject({ purpose: "refund", status: "error", active_fingerprint: expect.any(String), refund_id: null })
        expect(first.data.withdrawal.error_message).toContain(`Failed at the gateway: operation ${first.data.withdrawal.operation_id}, status error`)

        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.payments[0]).toMatchObject({ refunded: "0", reserved: "4.25", refundable: "6.25" })
        const second = ethAddress()
        const again = await requestFailure(api.post("/admin/crypto/refunds", refund(second), auth))
        expect(again.status).toBe(409)
        expect(again.message).toContain(first.data.withdrawal.id)
        expect(await operationsTo(second)).toBe(0)

        await api.post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/resolve`, { resolution: "failed", note: "the gateway shows the refund in error" }, auth)
        const after = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        expect(after.data.payments[0]).toMatchObject({ reserved: "0", refundable: "10.5" })
        const sent = await api.post("/admin/crypto/refunds", refund(second), auth)
        expect(sent.data.withdrawal).toMatchObject({ status: "completed", refund_id: expect.stringMatching(/^ref_/) })
      })

      it("keeps a Needs-attention refund answered with status error open and refuses another refund of the item until the merchant decides", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
        const invoice = await gateway.control().invoice(txnId)
        const paid = new Decimal(invoice.invoice_total_sum).times("1.1").toDecimalPlaces(invoice.precision, Decimal.ROUND_UP).toFixed()
        await gateway.control().pay(txnId, { amount: paid })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const [orderId] = await orderIdsForCart(container, store.cartId)
        const widget = await api.get(`/admin/crypto/orders/${orderId}`, auth)
        const item = widget.data.attention.find((candidate: { kind: string }) => candidate.kind === "overpaid")
        expect(item).toMatchObject({ id: expect.any(String), psys_cid: "ETH" })
        const refundPath = `/admin/crypto/attention/${item.id}/refund`

        await failNextWithdrawal()
        const first = await api.post(refundPath, { address: ethAddress(), idempotency_key: newKey() }, auth)
        expect(first.data.withdrawal).toMatchObject({ purpose: "overpayment", status: "error", active_fingerprint: expect.any(String) })
        expect(first.data.attention).toMatchObject({ status: "open", withdrawal_id: first.data.withdrawal.id })
        const other = ethAddress()
        const again = await requestFailure(api.post(refundPath, { address: other, idempotency_key: newKey() }, auth))
        expect(again.status).toBe(400)
        expect(again.message).toContain(first.data.withdrawal.operation_id)
        expect(await operationsTo(other)).toBe(0)

        await api.post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/resolve`, { resolution: "failed", note: "the refund's operation is in error, nothing sent" }, auth)
        const retried = await api.post(refundPath, { address: other, idempotency_key: newKey() }, auth)
        expect(retried.data.withdrawal).toMatchObject({ status: "completed", total_amount: item.amount })
        expect(retried.data.attention).toMatchObject({ status: "resolved", resolution: "refunded" })
      })
    })
  },
})
