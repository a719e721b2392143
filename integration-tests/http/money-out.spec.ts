// Money out, the cases of issue 17: no payment sent twice, no bad amount reaches the gateway
// (docs/money-out.md). The sandbox is driven only through its typed control client.
import { randomBytes } from "node:crypto"
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Decimal } from "decimal.js"
import { resolveCryptoModule } from "../../src/modules/crypto"
import { reconcileCryptoPayments } from "../../src/subscribers/crypto-reconcile-requested"
import { settleCryptoReceipt } from "../../src/subscribers/crypto-settlement-requested"
import {
  attentionItems,
  callbacksDeliveredAndProcessed,
  createCryptoStore,
  eventually,
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
    gateway.bindApp(getContainer)
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

    describe("settlement: conversion and sweep under the merchant's rules (docs/money-out.md#settlement)", () => {
      const crypto = () => resolveCryptoModule(getContainer())
      const saveAddress = async (psysCid: string, address: string) => api.post("/admin/crypto/money-out/addresses", { psys_cid: psysCid, address, label: "Treasury" }, auth)
      const setRules = async (settlement: Record<string, unknown>) => (await api.post("/admin/crypto/money-out/policy", { settlement }, auth)).data
      const balanceOf = async (coin: string) => (await gateway.client().balances.retrieve(coin)).balance
      /** ETH converted into USDT on Ethereum, paid out to a saved address. */
      const convertToUsdt = async (maxDifference = "2") => {
        const to = ethAddress()
        await saveAddress("USDT_ETH", to)
        await setRules({ ETH: { convert: { to_currency: "USDT_ETH", to_address: to, min_amount: "0.001", max_difference_percent: maxDifference }, sweep: null } })
        return to
      }
      /** A 120 EUR order paid in full in ETH (above the exchange's minimum), its invoice mirror once its callbacks are processed. */
      const paidInEth = async () => {
        const store = await createCryptoStore(getContainer(), { price: 120, manyPerDatabase: true })
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
        await gateway.payAndDeliver(txnId)
        const [mirror] = await crypto().listCryptoInvoices({ cart_id: store.cartId })
        return { txnId, mirror }
      }
      /** The exchange a trigger's conversion recorded, once its workflow has answered (a subscriber runs it). */
      const conversionOf = (subjectId: string) =>
        eventually(async () => {
          const rows = await crypto().listCryptoExchanges({ idempotency_key: `settlement:convert:${subjectId}` })
          if (rows.length !== 1 || ["requested", "sending"].includes(rows[0].status)) throw new Error(`conversion of ${subjectId} not answered yet: ${rows.map((row) => row.status).join(", ")}`)
          return rows[0]
        })

      it("converts a confirmed payment once, at what it credited, whatever the retries and however many workers run it", async () => {
        const to = await convertToUsdt()
        const { txnId, mirror } = await paidInEth()
        const exchange = await conversionOf(mirror.id)
        const credited = new Decimal(mirror.received_amount ?? "0").minus(mirror.commission ?? "0")
        expect(exchange).toMatchObject({ error_message: null, status: "created", from_currency: "ETH", to_currency: "USDT_ETH", to_address: to, from_amount: credited.toFixed(), requested_by: "settlement" })
        const afterFirst = await balanceOf("ETH")

        // The gateway delivers its callbacks again, and two workers take the same trigger at once.
        for (const delivery of await gateway.control().callbacks({ txnId })) await gateway.control().redeliver(delivery.id)
        await gateway.delivered()
        const trigger = { provider_id: mirror.provider_id, psys_cid: "ETH", subject_id: mirror.id, amount: credited.toFixed() }
        const retried = await Promise.all([settleCryptoReceipt(getContainer(), trigger), settleCryptoReceipt(getContainer(), trigger)])
        expect(retried.map((result) => result.convert)).toEqual([
          { id: null, status: null, skipped: "converted before" },
          { id: null, status: null, skipped: "converted before" },
        ])
        expect(await crypto().listCryptoExchanges({ requested_by: "settlement" })).toHaveLength(1)
        expect((await balanceOf("ETH")).toFixed()).toBe(afterFirst.toFixed())

        // A new trigger two workers take at the same moment, both past the first look: one exchange.
        const deposit = { ...trigger, subject_id: "pay_in:PI-race", amount: "0.01" }
        const raced = await Promise.all([settleCryptoReceipt(getContainer(), deposit), settleCryptoReceipt(getContainer(), deposit)])
        const [made] = await crypto().listCryptoExchanges({ idempotency_key: "settlement:convert:pay_in:PI-race" })
        expect(raced.map((result) => ("id" in result.convert ? result.convert.id : result.convert.failed))).toEqual([made.id, made.id])
        expect((await balanceOf("ETH")).toFixed()).toBe(afterFirst.minus("0.01").toFixed())
        const audit = await crypto().listCryptoMoneyOutAudits({ subject_id: exchange.id })
        expect(audit).toEqual([expect.objectContaining({ action: "exchange_allowed", actor: "settlement" })])
      })

      it("refuses an estimate further below the market than the rule allows: nothing is exchanged, the merchant sees why", async () => {
        // The sandbox's exchanges cost 1 % (its spread): a rule of 0.5 % refuses them.
        await convertToUsdt("0.5")
        const { mirror } = await paidInEth()
        const items = await eventually(async () => {
          const found = (await attentionItems(api, auth)).filter((item) => item.kind === "settlement_failed")
          if (found.length === 0) throw new Error("no settlement_failed item yet")
          return found
        })
        expect(items).toEqual([expect.objectContaining({ psys_cid: "ETH", subject_id: `convert:${mirror.id}`, amount: null })])
        expect(String(items[0].evidence.reason)).toMatch(/^the gateway's estimate for [\d.]+ ETH is [\d.]+ USDT_ETH, 1(\.\d+)? % below the market value, more than the rule's 0\.5 %$/)
        expect(await crypto().listCryptoExchanges({ requested_by: "settlement" })).toHaveLength(0)
      })

      it("follows an exchange to its end: one the gateway fails and one that buys less than quoted are raised; the books count what it bought, with its gain or loss", async () => {
        await convertToUsdt()
        const failing = await conversionOf((await paidInEth()).mirror.id)
        const short = await conversionOf((await paidInEth()).mirror.id)
        const ethBefore = await balanceOf("ETH")
        await gateway.control().finishExchange(String(failing.exchange_id), { status: "error" })
        const quoted = new Decimal(String((short.result as Record<string, unknown>).to_amount))
        const bought = quoted.times("0.95").toDecimalPlaces(quoted.decimalPlaces(), Decimal.ROUND_DOWN)
        await gateway.control().finishExchange(String(short.exchange_id), { status: "completed", toAmount: bought.toFixed() })

        const reconciled = await reconcileCryptoPayments(getContainer(), { older_than_seconds: 0 })
        expect(reconciled.exchanges_ended).toBe(2)
        // The failed exchange's coins came back at the gateway (the sandbox's reading).
        expect((await balanceOf("ETH")).toFixed()).toBe(ethBefore.plus(failing.from_amount ?? "0").toFixed())
        const [ended, completed] = await Promise.all([crypto().retrieveCryptoExchange(failing.id), crypto().retrieveCryptoExchange(short.id)])
        expect(ended.status).toBe("error")
        expect(completed.status).toBe("completed")
        const items = (await attentionItems(api, auth)).filter((item) => item.kind === "exchange_failed")
        expect(items.map((item) => item.subject_id).sort()).toEqual([failing.id, short.id].sort())
        expect(String(items.find((item) => item.subject_id === short.id)?.evidence.reason)).toBe(`it bought ${bought.toFixed()} USDT_ETH, 5 % less than the ${quoted.toFixed()} quoted`)
        // Read again: nothing more ends, nothing is raised twice.
        expect((await reconcileCryptoPayments(getContainer(), { older_than_seconds: 0 })).exchanges_ended).toBe(0)

        const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
        const { data } = await api.get(`/admin/crypto/exports/books?format=json&from=${day(-1)}&to=${day(2)}`, auth)
        const rows = data.rows as Array<Record<string, string | null>>
        const boughtRow = rows.find((row) => row.kind === "exchange_in" && row.reference === short.exchange_id)
        const soldRow = rows.find((row) => row.kind === "exchange" && row.reference === short.exchange_id)
        expect(boughtRow).toMatchObject({ psys_cid: "USDT_ETH", amount: bought.toFixed(), counted: "yes" })
        expect(soldRow).toMatchObject({ psys_cid: "ETH", amount: short.from_amount, counted: "yes" })
        expect(new Decimal(soldRow?.gain_loss ?? "NaN").toFixed(2)).toBe(new Decimal(boughtRow?.fiat_value ?? "NaN").minus(soldRow?.fiat_value ?? "NaN").toFixed(2))
        // The failed exchange is listed, never counted.
        expect(rows.filter((row) => row.reference === failing.exchange_id).every((row) => row.counted === "no")).toBe(true)
      })

      it("sweeps the balance above the threshold once, whatever the triggers at once, the retries and the workers", async () => {
        const cold = ethAddress()
        await saveAddress("ETH", cold)
        const balance = await balanceOf("ETH")
        const threshold = balance.minus("0.05")
        await setRules({ ETH: { convert: null, sweep: { threshold: threshold.toFixed(), to_address: cold } } })
        const trigger = (subject: string) => ({ provider_id: "pp_crypto_crypto", psys_cid: "ETH", subject_id: subject, amount: "0.01" })
        const results = await Promise.all([settleCryptoReceipt(getContainer(), trigger("cinv_a")), settleCryptoReceipt(getContainer(), trigger("cinv_b")), settleCryptoReceipt(getContainer(), trigger("cinv_a"))])
        const sweeps = await crypto().listCryptoWithdrawals({ requested_by: "settlement" })
        expect(sweeps).toHaveLength(1)
        expect(sweeps[0]).toMatchObject({ psys_cid: "ETH", status: "completed", total_amount: "0.05" })
        expect(await operationsTo(cold)).toBe(1)
        expect(results.filter((result) => "id" in result.sweep && result.sweep.id === sweeps[0].id)).not.toHaveLength(0)
        // A later trigger finds the balance at the threshold less the network fee: nothing to sweep.
        const later = await settleCryptoReceipt(getContainer(), trigger("cinv_c"))
        expect(later.sweep).toMatchObject({ id: null, skipped: expect.stringContaining("is not above") })
      })

      it("does not sweep to an address that is not saved, and says so in Needs attention", async () => {
        const stranger = ethAddress()
        await setRules({ ETH: { convert: null, sweep: { threshold: "0.001", to_address: stranger } } })
        const result = await settleCryptoReceipt(getContainer(), { provider_id: "pp_crypto_crypto", psys_cid: "ETH", subject_id: "cinv_x", amount: "0.01" })
        expect(result.sweep).toEqual({ failed: expect.stringContaining("rule: address book") })
        expect(await operationsTo(stranger)).toBe(0)
        const [item] = (await attentionItems(api, auth)).filter((candidate) => candidate.kind === "settlement_failed")
        expect(item).toMatchObject({ subject_id: "sweep:cinv_x", psys_cid: "ETH" })
      })
    })
  },
})
