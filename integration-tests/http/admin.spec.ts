import { randomBytes } from "node:crypto"
import path from "node:path"
import type { ICustomerModuleService, INotificationModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import {
  CRYPTO_PROVIDER_ID,
  callbacksDeliveredAndProcessed,
  controlOf,
  createCryptoStore,
  ethAddress,
  eventually,
  minutesLater,
  newKey,
  orderIdsForCart,
  orderOverpaidInCrypto,
  orderPaidInCrypto,
  requestFailure,
  startCryptoCheckout,
  storefrontHeaders,
  useAdminAuth,
  useSavedAddresses,
  useTestGateway,
  withdrawal,
} from "./helpers"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { asValue } from "@medusajs/framework/awilix"
import type { ConfigModule } from "@medusajs/framework/types"
import { signCallback } from "../../src/gateway"
import { CRYPTO_MODULE } from "../../src/modules/crypto"
import type CryptoModuleService from "../../src/modules/crypto/service"
import { testCallbackFields } from "../../src/core/payment/test-callback"
import type { AdminCryptoSettingsResponse, Serialized } from "../../src/api/admin/crypto/types"
import { callbackRouteOf } from "./helpers"

jest.setTimeout(300_000)

/** Admin calls to the gateway give up after this long, so a dropped answer is seen quickly. */
const ADMIN_TIMEOUT_MS = 3000

/** The test app's second provider entry, configured with the plain shop's key (integration-tests/app). */
const PLAIN_PROVIDER_ID = "pp_crypto_crypto_plain"

// Declared before the runner's own beforeAll, which boots the app with the environment set here. The
// admin's features (withdrawals, exchanges) are the white-label shop's; the plain shop (without
// white-label: its operations carry no address, amount or time, spec §2.2) is the app's second
// provider entry. Deposit callbacks (spec §6.2) go to the shop's Status URL, which the seed leaves
// empty: it points at the test app's callback route, as a merchant sets it in the gateway's shop settings.
const gateway = useTestGateway({
  whiteLabel: true,
  env: { MPC_TEST_GATEWAY_TIMEOUT_MS: String(ADMIN_TIMEOUT_MS), MPC_TEST_PAY_REST_HOURS: "0" },
  plainShop: true,
  statusUrlToApp: true,
})

/** Withdrawals to `address` that exist at the gateway (the sandbox), whatever our database says. */
async function withdrawalsAtGateway(address: string): Promise<number> {
  let count = 0
  for await (const operation of gateway.client().operations.iterate({ type: "cash_out", currency: "ETH", limit: 50 })) {
    if (operation.wallet_hash === address) count += 1
  }
  return count
}

/** The ids of the plain shop's ETH cash_outs at the gateway, newest first (they carry no address). */
async function plainCashOutIds(): Promise<string[]> {
  const ids: string[] = []
  for await (const operation of gateway.client(gateway.plainShop).operations.iterate({ type: "cash_out", currency: "ETH", limit: 50 })) ids.push(operation.id)
  return ids
}

/** The cash_outs to `address` the gateway (the sandbox) holds, read through the client: their coin amounts. */
async function cashOutAmountsAtGateway(address: string): Promise<string[]> {
  const amounts: string[] = []
  for await (const operation of gateway.client().operations.iterate({ type: "cash_out", currency: "ETH", limit: 50 })) {
    if (operation.wallet_hash === address) amounts.push(operation.amount?.toFixed() ?? "none")
  }
  return amounts
}

/** The shop's ETH balance as the gateway reports it (spec §4.9). */
async function sandboxEthBalance(): Promise<Decimal> {
  return new Decimal((await gateway.client().balances.retrieve("ETH")).balance.toFixed())
}

/** The fee the gateway charged for its one cash_out to `address` (spec §2.2 `fee` of the operation). */
async function sandboxFeeOfCashOut(address: string): Promise<Decimal> {
  for await (const operation of gateway.client().operations.iterate({ type: "cash_out", currency: "ETH", limit: 50 })) {
    if (operation.wallet_hash === address && operation.fee !== undefined && operation.fee !== null) return new Decimal(operation.fee.toFixed())
  }
  throw new Error(`the gateway holds no cash_out to ${address} with a fee`)
}

/**
 * The shopper pays `fraction` of a 10.50 EUR ETH invoice (rounded to the coin's precision: up when
 * paying more, down when paying less) and the sandbox delivers the callbacks. Returns the order the
 * payment placed and the exact coin amount paid.
 */
async function orderPaidInPart(container: MedusaContainer, api: AxiosInstance, fraction: string): Promise<{ orderId: string; txnId: string; paid: Decimal; due: Decimal }> {
  const store = await createCryptoStore(container)
  const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
  const { total, precision } = await gateway.dueAt(txnId)
  const paid = total.times(fraction).toDecimalPlaces(precision, new Decimal(fraction).gt(1) ? Decimal.ROUND_UP : Decimal.ROUND_DOWN)
  await gateway.control().pay(txnId, { amount: paid.toFixed() })
  await callbacksDeliveredAndProcessed(gateway.sandbox, container)
  const orderIds = await orderIdsForCart(container, store.cartId)
  if (orderIds.length !== 1) throw new Error(`expected one order for the paid cart, found ${orderIds.length}`)
  return { orderId: orderIds[0], txnId, paid, due: total }
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    const auth = useAdminAuth(getContainer)
    useSavedAddresses(api)
    const admin = (): AxiosInstance => api

    describe("authentication", () => {
      it("answers 401 to a request without an admin token", async () => {
        expect((await requestFailure(admin().get("/admin/crypto/balances"))).status).toBe(401)
      })

      it("answers 401 to a withdrawal without an admin token and sends nothing", async () => {
        const address = ethAddress()
        expect((await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal(address)))).status).toBe(401)
        expect(await withdrawalsAtGateway(address)).toBe(0)
      })
    })

    describe("balances, currencies, fees", () => {
      it("lists the balance of every coin the shop uses with its fiat value as decimal strings", async () => {
        const { data } = await admin().get("/admin/crypto/balances?fiat=EUR", auth)
        expect(data.fiat).toBe("EUR")
        const eth = data.balances.find((b: { psys_cid: string }) => b.psys_cid === "ETH")
        expect(eth).toMatchObject({ balance: expect.stringMatching(/^\d+(\.\d+)?$/), fiat_value: expect.stringMatching(/^\d+\.\d{2}$/), error: null })
      })

      it("lists the currencies with rates in the fiat asked for", async () => {
        const { data } = await admin().get("/admin/crypto/currencies?fiat=eur", auth)
        expect(data.fiat).toBe("EUR")
        expect(data.currencies.find((c: { cid: string }) => c.cid === "BTC").fiat_rate).toMatch(/^\d+(\.\d+)?$/)
      })

      it("refuses a fiat that is not a 3-letter code, naming the field", async () => {
        const { status, message } = await requestFailure(admin().get("/admin/crypto/currencies?fiat=euro", auth))
        expect(status).toBe(400)
        expect(message).toContain("fiat")
      })

      it("gives the fee plans of a coin", async () => {
        const { data } = await admin().get("/admin/crypto/fee-plans/ETH", auth)
        expect(Object.keys(data.plans)).toEqual(expect.arrayContaining(["normal", "priority"]))
      })

      it("estimates the fee and the commission of a prospective withdrawal without sending it", async () => {
        const address = ethAddress()
        const body = { psys_cid: "ETH", recipients: [{ address, amount: "0.5" }], fee_plan: "priority" }
        const fee = await admin().post("/admin/crypto/fee-estimate", body, auth)
        const commission = await admin().post("/admin/crypto/commission-estimate", body, auth)
        expect(fee.data.fee.fee).toMatch(/^\d+(\.\d+)?$/)
        expect(commission.data.commission.commission).toMatch(/^\d+(\.\d+)?$/)
        expect(await withdrawalsAtGateway(address)).toBe(0)
      })
    })

    describe("withdrawals", () => {
      it("refuses an amount sent as a JSON number, naming the field", async () => {
        const body = { ...withdrawal(ethAddress()), recipients: [{ address: ethAddress(), amount: 0.01 }] }
        const { status, message } = await requestFailure(admin().post("/admin/crypto/withdrawals", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("amount")
      })

      it("refuses an address holding a comma, naming the field", async () => {
        const { status, message } = await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal(`${ethAddress()},${ethAddress()}`), auth))
        expect(status).toBe(400)
        expect(message).toContain("address")
      })

      it("sends a withdrawal, records who asked, and returns its tx link", async () => {
        const address = ethAddress()
        const { data, status } = await admin().post("/admin/crypto/withdrawals", withdrawal(address), auth)
        expect(status).toBe(200)
        expect(data.withdrawal).toMatchObject({ status: "completed", type: "cash_out", total_amount: "0.01", requested_by: expect.stringMatching(/^user_/) })
        expect(data.withdrawal.operation_id).toEqual(expect.any(String))
        expect(data.withdrawal.tx_urls.length).toBeGreaterThan(0)
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("sends a retried request with the same idempotency key once", async () => {
        const address = ethAddress()
        const body = withdrawal(address)
        const first = await admin().post("/admin/crypto/withdrawals", body, auth)
        const second = await admin().post("/admin/crypto/withdrawals", body, auth)
        expect(second.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("sends a double-clicked withdrawal (concurrent requests, one key) once", async () => {
        const address = ethAddress()
        const body = withdrawal(address)
        const answers = await Promise.allSettled(Array.from({ length: 5 }, () => admin().post("/admin/crypto/withdrawals", body, auth)))
        const ids = new Set(answers.flatMap((a) => (a.status === "fulfilled" ? [a.value.data.withdrawal.id] : [])))
        expect(ids.size).toBe(1)
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("refuses to reuse an idempotency key for another withdrawal", async () => {
        const body = withdrawal(ethAddress())
        await admin().post("/admin/crypto/withdrawals", body, auth)
        const { status, message } = await requestFailure(admin().post("/admin/crypto/withdrawals", { ...body, recipients: [{ address: ethAddress(), amount: "0.01" }] }, auth))
        expect(status).toBe(400)
        expect(message).toContain("idempotency_key")
      })

      it("explains insufficient funds in the merchant's words, naming the amount", async () => {
        const address = ethAddress()
        const { status, message } = await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal(address, "100000"), auth))
        expect(status).toBe(400)
        expect(message).toContain("insufficient funds")
        expect(message).toContain("(field: amount)")
        expect(await withdrawalsAtGateway(address)).toBe(0)
      })

      it("explains an address the gateway refuses, naming the address", async () => {
        const { status, message } = await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal("0xnot-an-address"), auth))
        expect(status).toBe(400)
        expect(message).toContain("the address is not valid for this coin")
        expect(message).toContain("(field: address)")
      })

      it("records a timed-out withdrawal as outcome unknown, blocks a resend, and settles it from the operations", async () => {
        const address = ethAddress()
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "timeout", ms: ADMIN_TIMEOUT_MS * 4 })
        const first = await admin().post("/admin/crypto/withdrawals", withdrawal(address), auth)
        expect(first.status).toBe(202)
        expect(first.data.withdrawal.status).toBe("outcome_unknown")

        const again = await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal(address), auth))
        expect(again.status).toBe(400)
        expect(again.message).toContain("outcome unknown")

        const settled = await admin().post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/reconcile`, {}, auth)
        expect(settled.data.withdrawal).toMatchObject({ status: "completed", operation_id: expect.any(String) })
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("records a withdrawal whose answer is malformed as outcome unknown, sends no second one with a new key, and settles it with the operation made after the request", async () => {
        const address = ethAddress()
        // The same payment made earlier outside the admin (the gateway's dashboard): not this withdrawal.
        const earlier = await gateway.client().operations.withdraw({ currency: "ETH", type: "cash_out", to: [address], amount: ["0.01"], feePlan: "normal" })
        // Operations carry their creation time in whole seconds: the admin's request comes once the
        // clock (Medusa's and the sandbox's, one machine) is past that second, so the earlier one is provably before it.
        const earlierSecond = earlier.created_at_utc
        if (typeof earlierSecond !== "number") throw new Error("the sandbox's white-label withdrawal carries created_at_utc")
        await eventually(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(earlierSecond))
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "malformed" })
        const first = await admin().post("/admin/crypto/withdrawals", withdrawal(address), auth)
        expect(first.status).toBe(202)
        expect(first.data.withdrawal).toMatchObject({ status: "outcome_unknown", active_fingerprint: expect.any(String) })

        const again = await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal(address), auth))
        expect(again.status).toBe(400)
        expect(again.message).toContain("outcome unknown")
        expect(await withdrawalsAtGateway(address)).toBe(2)

        const settled = await admin().post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/reconcile`, {}, auth)
        expect(settled.data.withdrawal).toMatchObject({ status: "completed", operation_id: expect.any(String) })
        expect(settled.data.withdrawal.operation_id).not.toBe(earlier.id)
      })

      it("records a withdrawal answered with a gateway failure (5xx) as outcome unknown, not as refused", async () => {
        const address = ethAddress()
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx" })
        const first = await admin().post("/admin/crypto/withdrawals", withdrawal(address), auth)
        expect(first.status).toBe(202)
        expect(first.data.withdrawal.status).toBe("outcome_unknown")
        expect((await requestFailure(admin().post("/admin/crypto/withdrawals", withdrawal(address), auth))).status).toBe(400)
      })

      it("keeps a timed-out withdrawal of a shop without white-label unknown after any wait, shows the operations that could be it, and refuses a resend until the merchant resolves it", async () => {
        const address = ethAddress()
        const body = { ...withdrawal(address), provider_id: PLAIN_PROVIDER_ID }
        await controlOf(gateway.sandbox, gateway.plainShop).fault({ path: "/api/v1/operations/withdraw", mode: "timeout", ms: ADMIN_TIMEOUT_MS * 4 })
        const first = await admin().post("/admin/crypto/withdrawals", body, auth)
        expect(first.status).toBe(202)
        const id = first.data.withdrawal.id

        const later = await minutesLater(20, () => admin().post(`/admin/crypto/withdrawals/${id}/reconcile`, {}, auth))
        expect(later.data.withdrawal).toMatchObject({ status: "outcome_unknown", active_fingerprint: expect.any(String), resolved_at: null })
        const resend = await requestFailure(admin().post("/admin/crypto/withdrawals", { ...withdrawal(address), provider_id: PLAIN_PROVIDER_ID }, auth))
        expect(resend.status).toBe(400)

        const [atGateway] = await plainCashOutIds()
        const detail = await admin().get(`/admin/crypto/withdrawals/${id}`, auth)
        expect(detail.data.candidates).toEqual(expect.arrayContaining([expect.objectContaining({ operation_id: atGateway, reasons: expect.any(Array) })]))
      })

      it("settles an unknown outcome with the operation the merchant names, recording who and when", async () => {
        const address = ethAddress()
        await controlOf(gateway.sandbox, gateway.plainShop).fault({ path: "/api/v1/operations/withdraw", mode: "timeout", ms: ADMIN_TIMEOUT_MS * 4 })
        const first = await admin().post("/admin/crypto/withdrawals", { ...withdrawal(address), provider_id: PLAIN_PROVIDER_ID }, auth)
        const [atGateway] = await plainCashOutIds()
        const resolved = await admin().post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/resolve`, { resolution: "operation", operation_id: atGateway }, auth)
        expect(resolved.data.withdrawal).toMatchObject({
          status: "completed",
          operation_id: atGateway,
          resolution: "operation",
          resolved_by: expect.stringMatching(/^user_/),
          resolved_at: expect.any(String),
          active_fingerprint: null,
        })
      })

      it("refuses to resolve an unknown outcome as not sent without a note, naming the field", async () => {
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx" })
        const first = await admin().post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        const { status, message } = await requestFailure(admin().post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/resolve`, { resolution: "not_sent" }, auth))
        expect(status).toBe(400)
        expect(message).toContain("note")
      })

      it("allows the same payment again only after the merchant confirmed the first was not sent", async () => {
        const address = ethAddress()
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx" })
        const first = await admin().post("/admin/crypto/withdrawals", withdrawal(address), auth)
        const note = "confirmed not sent, I checked the gateway"
        const resolved = await admin().post(`/admin/crypto/withdrawals/${first.data.withdrawal.id}/resolve`, { resolution: "not_sent", note }, auth)
        expect(resolved.data.withdrawal).toMatchObject({ status: "not_sent", resolution: "not_sent", resolution_note: note, resolved_by: expect.stringMatching(/^user_/), active_fingerprint: null })
        const again = await admin().post("/admin/crypto/withdrawals", withdrawal(address), auth)
        expect(again.data.withdrawal.status).toBe("completed")
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("sends a mass payout once as one mass_cash_out holding every recipient", async () => {
        const recipients = [ethAddress(), ethAddress(), ethAddress()].map((address, index) => ({ address, amount: `0.00${index + 1}` }))
        const body = { idempotency_key: newKey(), psys_cid: "ETH", recipients, fee_plan: "normal" }
        const first = await admin().post("/admin/crypto/withdrawals", body, auth)
        const again = await admin().post("/admin/crypto/withdrawals", body, auth)
        expect(first.data.withdrawal).toMatchObject({ status: "completed", type: "mass_cash_out", total_amount: "0.006", recipients })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        const operation = await gateway.client().operations.retrieve(first.data.withdrawal.operation_id)
        expect(Object.fromEntries(Object.entries(operation.sendmany ?? {}).map(([address, amount]) => [address, amount.toFixed()]))).toEqual(
          Object.fromEntries(recipients.map((r) => [r.address, r.amount]))
        )
      })

      it("lists the recorded withdrawals by status", async () => {
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "5xx" })
        const unknown = await admin().post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        const list = await admin().get("/admin/crypto/withdrawals?status=outcome_unknown&purpose=withdrawal&limit=100", auth)
        expect(list.data.withdrawals.map((w: { id: string }) => w.id)).toContain(unknown.data.withdrawal.id)
        expect(list.data.withdrawals.every((w: { status: string }) => w.status === "outcome_unknown")).toBe(true)
      })

      it("lists and reads the recorded withdrawals", async () => {
        const created = await admin().post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        const list = await admin().get("/admin/crypto/withdrawals?limit=5", auth)
        expect(list.data.withdrawals.map((w: { id: string }) => w.id)).toContain(created.data.withdrawal.id)
        const one = await admin().get(`/admin/crypto/withdrawals/${created.data.withdrawal.id}`, auth)
        expect(one.data.withdrawal.id).toBe(created.data.withdrawal.id)
        expect((await requestFailure(admin().get("/admin/crypto/withdrawals/cwdr_missing", auth))).status).toBe(404)
      })
    })

    describe("operations", () => {
      it("lists operations with the gateway's filters and paging", async () => {
        await admin().post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        const { data } = await admin().get("/admin/crypto/operations?type=cash_out&currency=ETH&limit=2&page=1", auth)
        expect(data.operations.length).toBeGreaterThan(0)
        expect(data.operations.every((op: { type: string }) => op.type === "cash_out")).toBe(true)
        expect(data.meta).toMatchObject({ currentPage: 1, perPage: 2 })
      })

      it("reads one operation in detail", async () => {
        const created = await admin().post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth)
        const { data } = await admin().get(`/admin/crypto/operations/${created.data.withdrawal.operation_id}`, auth)
        expect(data.operation).toMatchObject({ id: created.data.withdrawal.operation_id, type: "cash_out" })
      })

      it("refuses an unknown operation type, naming the field", async () => {
        const { status, message } = await requestFailure(admin().get("/admin/crypto/operations?type=refund", auth))
        expect(status).toBe(400)
        expect(message).toContain("type")
      })
    })

    describe("deposits", () => {
      it("creates a customer's deposit address and lists it", async () => {
        const uid = `cus_${randomBytes(6).toString("hex")}`
        const created = await admin().post("/admin/crypto/deposits", { uid, psys_cid: "LTC" }, auth)
        expect(created.data.deposits[0]).toMatchObject({ uid, psys_cid: "LTC", hash: expect.any(String) })
        const list = await admin().get(`/admin/crypto/deposits?uid=${uid}`, auth)
        expect(list.data.deposits.map((d: { hash: string }) => d.hash)).toContain(created.data.deposits[0].hash)
      })

      it("refuses a uid longer than 255 characters, naming the field", async () => {
        const { status, message } = await requestFailure(admin().post("/admin/crypto/deposits", { uid: "x".repeat(256), psys_cid: "LTC" }, auth))
        expect(status).toBe(400)
        expect(message).toContain("uid")
      })

      /** A deposit address for `uid` in LTC, paid `amount` through the sandbox, callbacks delivered. */
      async function paidDeposit(uid: string, amount: string): Promise<{ hash: string }> {
        const created = await admin().post("/admin/crypto/deposits", { uid, psys_cid: "LTC" }, auth)
        const hash = String(created.data.deposits[0].hash)
        await gateway.control().payDeposit(hash, { amount })
        await callbacksDeliveredAndProcessed(gateway.sandbox, getContainer())
        return { hash }
      }

      it("lists the delivered pay_in of a deposit, filtered by its uid in the database", async () => {
        const uid = `cus_${randomBytes(6).toString("hex")}`
        const { hash } = await paidDeposit(uid, "1.25")
        await paidDeposit(`cus_${randomBytes(6).toString("hex")}`, "2")
        const { data } = await admin().get(`/admin/crypto/deposits/callbacks?uid=${uid}`, auth)
        expect(data.count).toBeGreaterThan(0)
        expect(data.callbacks.every((c: { deposit_uid: string }) => c.deposit_uid === uid)).toBe(true)
        expect(data.callbacks[0]).toMatchObject({ deposit_uid: uid, psys_cid: "LTC", amount: "1.25", wallet_hash: hash })
      })

      it("shows a customer's deposit addresses, pay_ins and totals per coin as decimal strings", async () => {
        const container = getContainer()
        const customer = await container.resolve<ICustomerModuleService>(Modules.CUSTOMER).createCustomers({ email: `buyer-${randomBytes(4).toString("hex")}@example.com` })
        const { hash } = await paidDeposit(customer.id, "0.1")
        await gateway.control().payDeposit(hash, { amount: "0.2" })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const { data } = await admin().get(`/admin/crypto/customers/${customer.id}/deposits`, auth)
        expect(data.addresses.map((a: { hash: string }) => a.hash)).toContain(hash)
        expect(data.pay_ins.every((p: { deposit_uid: string }) => p.deposit_uid === customer.id)).toBe(true)
        expect(data.totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0.3", pending: "0", count: 2 }])
      })

      it("answers 404 for the deposits of a customer that does not exist", async () => {
        expect((await requestFailure(admin().get("/admin/crypto/customers/cus_missing/deposits", auth))).status).toBe(404)
      })
    })

    describe("exchanges", () => {
      it("lists exchange currencies and estimates an exchange", async () => {
        const currencies = await admin().get("/admin/crypto/exchanges/currencies", auth)
        expect(currencies.data.currencies).toEqual(expect.any(Array))
        const estimate = await admin().post("/admin/crypto/exchanges/estimate", { from_currency: "ETH", to_currency: "BTC", from_amount: "1" }, auth)
        expect(estimate.data.estimate).toMatchObject({ from_currency: "ETH", to_currency: "BTC" })
      })

      const exchangeBody = () => ({
        idempotency_key: newKey(),
        from_currency: "ETH",
        to_currency: "BTC",
        from_amount: "1",
        to_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        confirmed: true,
      })

      it("refuses to create an exchange the merchant did not confirm", async () => {
        const { confirmed: _confirmed, ...body } = exchangeBody()
        const { status, message } = await requestFailure(admin().post("/admin/crypto/exchanges", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("confirmed")
      })

      it("records a confirmed exchange before creating it, creates it once per key and reads its status", async () => {
        const body = exchangeBody()
        const created = await admin().post("/admin/crypto/exchanges", body, auth)
        expect(created.status).toBe(201)
        expect(created.data.exchange).toMatchObject({ id: expect.stringMatching(/^cexc_/), status: "created", exchange_id: expect.any(String), from_amount: "1", requested_by: expect.stringMatching(/^user_/) })
        const balanceAfterFirst = await sandboxEthBalance()
        const again = await admin().post("/admin/crypto/exchanges", body, auth)
        expect(again.data).toMatchObject({ replayed: true, exchange: { id: created.data.exchange.id } })
        expect((await sandboxEthBalance()).toFixed()).toBe(balanceAfterFirst.toFixed())
        const status = await admin().get(`/admin/crypto/exchanges/${created.data.exchange.exchange_id}`, auth)
        expect(status.data.exchange.id).toBe(created.data.exchange.exchange_id)
      })

      it("refuses an exchange without an idempotency key, naming the field", async () => {
        const { idempotency_key: _key, ...body } = exchangeBody()
        const { status, message } = await requestFailure(admin().post("/admin/crypto/exchanges", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("idempotency_key")
      })

      it("lists the recorded exchanges, newest first", async () => {
        const created = await admin().post("/admin/crypto/exchanges", exchangeBody(), auth)
        const { data } = await admin().get("/admin/crypto/exchanges?limit=5", auth)
        expect(data.exchanges[0].id).toBe(created.data.exchange.id)
        expect(data.count).toBeGreaterThan(0)
      })

      it("records an exchange whose answer is malformed as outcome unknown and never creates it again for the same key", async () => {
        const body = exchangeBody()
        await gateway.control().fault({ path: "/api/v1/exchanges/new", mode: "malformed" })
        const first = await admin().post("/admin/crypto/exchanges", body, auth)
        expect(first.status).toBe(202)
        expect(first.data.exchange.status).toBe("outcome_unknown")
        const balanceAfterFirst = await sandboxEthBalance()
        const again = await admin().post("/admin/crypto/exchanges", body, auth)
        expect(again.data).toMatchObject({ replayed: true, exchange: { id: first.data.exchange.id, status: "outcome_unknown" } })
        expect((await sandboxEthBalance()).toFixed()).toBe(balanceAfterFirst.toFixed())
      })

      it("resolves an exchange of unknown outcome as not sent only with a note, recording who", async () => {
        await gateway.control().fault({ path: "/api/v1/exchanges/new", mode: "5xx" })
        const first = await admin().post("/admin/crypto/exchanges", exchangeBody(), auth)
        expect(first.data.exchange.status).toBe("outcome_unknown")
        const path = `/admin/crypto/exchanges/${first.data.exchange.id}/resolve`
        expect((await requestFailure(admin().post(path, { resolution: "not_sent" }, auth))).message).toContain("note")
        const { data } = await admin().post(path, { resolution: "not_sent", note: "not in the gateway's exchange history" }, auth)
        expect(data.exchange).toMatchObject({ status: "not_sent", resolution: "not_sent", resolved_by: expect.stringMatching(/^user_/), resolution_note: "not in the gateway's exchange history" })
      })
    })

    describe("an order paid in crypto", () => {
      it("shows the invoice, its status history and the refundable amount for the order widget", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data } = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(data).toMatchObject({ is_crypto: true, currency_code: "eur", payments: [{ captured: "10.5", refunded: "0", refundable: "10.5" }] })
        expect(data.invoices[0]).toMatchObject({ psys_cid: "ETH", session_status: "captured" })
        expect(data.operation).toMatchObject({ status: "completed" })
        expect(data.history.map((h: { status: string }) => h.status)).toContain("completed")
      })

      it("quotes a refund at the gateway's rate, rounded down to the coin's precision", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const expected = new Decimal("4.25").div(data.quote.rate).toDecimalPlaces(data.quote.precision, Decimal.ROUND_DOWN).toFixed()
        expect(data.quote).toMatchObject({ psys_cid: "ETH", fiat: "EUR", amount: "4.25", coin_amount: expected })
      })

      it("refuses a refund above what is captured and not refunded, naming the amount", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "11" }, auth))
        expect(status).toBe(400)
        expect(message).toContain("(field: amount)")
      })

      it("refuses a refund at a rate that moved away from the confirmed one, naming the rate", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const address = ethAddress()
        const body = { idempotency_key: newKey(), order_id: orderId, amount: "4.25", rate: "1", address }
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("(field: rate)")
        expect(await withdrawalsAtGateway(address)).toBe(0)
      })

      it("sends a crypto refund once as a cash_out of the quoted coin amount", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const address = ethAddress()
        const body = { idempotency_key: newKey(), order_id: orderId, amount: "4.25", rate: quoted.quote.rate, address }
        const first = await admin().post("/admin/crypto/refunds", body, auth)
        const again = await admin().post("/admin/crypto/refunds", body, auth)
        expect(first.data.withdrawal).toMatchObject({ purpose: "refund", status: "completed", order_id: orderId, total_amount: quoted.quote.coin_amount, source_amount: "4.25", source_currency: "EUR" })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("sends a refund of the whole refundable amount once when the request is retried", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId }, auth)
        const address = ethAddress()
        const body = { idempotency_key: newKey(), order_id: orderId, rate: quoted.quote.rate, address }
        const first = await admin().post("/admin/crypto/refunds", body, auth)
        const again = await admin().post("/admin/crypto/refunds", body, auth)
        expect(first.data.withdrawal).toMatchObject({ status: "completed", source_amount: "10.5", total_amount: quoted.quote.coin_amount })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await cashOutAmountsAtGateway(address)).toEqual([quoted.quote.coin_amount])
      })

      it("sends one refund when a second is asked while the first one's outcome is unknown", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId }, auth)
        const [first, second] = [ethAddress(), ethAddress()]
        const refund = (address: string) => ({ idempotency_key: newKey(), order_id: orderId, amount: "10.5", rate: quoted.quote.rate, address })
        await gateway.control().fault({ path: "/api/v1/operations/withdraw", mode: "timeout", ms: ADMIN_TIMEOUT_MS * 4 })
        const unknown = await admin().post("/admin/crypto/refunds", refund(first), auth)
        expect(unknown.data.withdrawal.status).toBe("outcome_unknown")

        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds", refund(second), auth))
        expect(status).toBe(400)
        expect(message).toContain("(field: amount)")
        expect((await withdrawalsAtGateway(first)) + (await withdrawalsAtGateway(second))).toBe(1)
        const widget = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.payments[0]).toMatchObject({ refunded: "0", reserved: "10.5", refundable: "0" })
      })

      it("never sends both of two refunds of the whole amount asked at the same moment", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId }, auth)
        const addresses = [ethAddress(), ethAddress()]
        await Promise.allSettled(
          addresses.map((address) =>
            admin().post("/admin/crypto/refunds", { idempotency_key: newKey(), order_id: orderId, amount: "10.5", rate: quoted.quote.rate, address }, auth)
          )
        )
        const sent = (await withdrawalsAtGateway(addresses[0])) + (await withdrawalsAtGateway(addresses[1]))
        expect(sent).toBeLessThanOrEqual(1)
      })

      it("records the sent crypto refund as the Medusa refund of the payment", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const body = { idempotency_key: newKey(), order_id: orderId, amount: "4.25", rate: quoted.quote.rate, address: ethAddress() }
        const { data } = await admin().post("/admin/crypto/refunds", body, auth)
        expect(data.withdrawal.refund_id).toMatch(/^ref_/)
        const widget = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.payments[0]).toMatchObject({ refunded: "4.25", refundable: "6.25" })
      })
    })

    describe("refunds of over- and underpayments", () => {
      const refundOf = (orderId: string, kind: "overpayment" | "underpayment", address: string) => ({
        idempotency_key: newKey(),
        order_id: orderId,
        kind,
        address,
      })

      it("sends the overpaid coins once as a cash_out of exactly the overpaid amount and marks the overpayment refunded", async () => {
        const { orderId, paid, due } = await orderPaidInPart(getContainer(), api, "1.1")
        const overpaid = paid.minus(due).toFixed()
        const before = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(before.data.invoices[0]).toMatchObject({ overpaid_amount: overpaid, refund_due_amount: null })
        const address = ethAddress()
        const balanceBefore = await sandboxEthBalance()

        const body = refundOf(orderId, "overpayment", address)
        const first = await admin().post("/admin/crypto/refunds", body, auth)
        const again = await admin().post("/admin/crypto/refunds", body, auth)

        expect(first.data.withdrawal).toMatchObject({
          purpose: "overpayment",
          status: "completed",
          type: "cash_out",
          psys_cid: "ETH",
          order_id: orderId,
          invoice_id: before.data.invoices[0].id,
          total_amount: overpaid,
          recipients: [{ address, amount: overpaid }],
          requested_by: expect.stringMatching(/^user_/),
        })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await cashOutAmountsAtGateway(address)).toEqual([overpaid])
        expect(balanceBefore.minus(await sandboxEthBalance()).toFixed()).toBe(new Decimal(overpaid).plus(await sandboxFeeOfCashOut(address)).toFixed())
        const after = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(after.data.withdrawals).toEqual([expect.objectContaining({ id: first.data.withdrawal.id, purpose: "overpayment", status: "completed", total_amount: overpaid })])
        // The overpayment was never part of the order's captured amount: no Medusa refund for it.
        expect(after.data.payments[0]).toMatchObject({ captured: "10.5", refunded: "0" })
      })

      it("refuses a second refund of an overpayment already refunded in full, naming the amount, and sends nothing", async () => {
        const { orderId } = await orderPaidInPart(getContainer(), api, "1.1")
        await admin().post("/admin/crypto/refunds", refundOf(orderId, "overpayment", ethAddress()), auth)
        const address = ethAddress()
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds", refundOf(orderId, "overpayment", address), auth))
        expect(status).toBe(400)
        expect(message).toContain("at most the 0 ETH still due")
        expect(message).toContain("(field: amount)")
        expect(await cashOutAmountsAtGateway(address)).toEqual([])
      })

      it("sends what an underpaid invoice beyond the tolerance received, once, and marks the refund due paid", async () => {
        const container = getContainer()
        const { orderId, paid } = await orderPaidInPart(container, api, "0.9")
        // The invoice expires underpaid: the order placed on detection is canceled, the refund due recorded.
        await gateway.control().advanceClock(7200)
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const { data: orders } = await query.graph({ entity: "order", fields: ["status"], filters: { id: orderId } })
        expect(orders[0].status).toBe("canceled")
        const before = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(before.data.invoices[0]).toMatchObject({ session_status: "canceled", received_amount: paid.toFixed(), refund_due_amount: paid.toFixed(), overpaid_amount: null })
        const address = ethAddress()
        const balanceBefore = await sandboxEthBalance()

        const body = refundOf(orderId, "underpayment", address)
        const first = await admin().post("/admin/crypto/refunds", body, auth)
        const again = await admin().post("/admin/crypto/refunds", body, auth)

        expect(first.data.withdrawal).toMatchObject({
          purpose: "underpayment",
          status: "completed",
          type: "cash_out",
          order_id: orderId,
          invoice_id: before.data.invoices[0].id,
          total_amount: paid.toFixed(),
          recipients: [{ address, amount: paid.toFixed() }],
        })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await cashOutAmountsAtGateway(address)).toEqual([paid.toFixed()])
        expect(balanceBefore.minus(await sandboxEthBalance()).toFixed()).toBe(paid.plus(await sandboxFeeOfCashOut(address)).toFixed())
        const after = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(after.data.withdrawals).toEqual([expect.objectContaining({ id: first.data.withdrawal.id, purpose: "underpayment", status: "completed", total_amount: paid.toFixed() })])
        const more = await requestFailure(admin().post("/admin/crypto/refunds", refundOf(orderId, "underpayment", ethAddress()), auth))
        expect(more).toMatchObject({ status: 400, message: expect.stringContaining("(field: amount)") })
      })

      it("refuses to refund an overpayment of an order paid exactly, naming the kind, and sends nothing", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const address = ethAddress()
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds", refundOf(orderId, "overpayment", address), auth))
        expect(status).toBe(400)
        expect(message).toContain("no overpaid crypto invoice")
        expect(message).toContain("(field: kind)")
        expect(await cashOutAmountsAtGateway(address)).toEqual([])
      })

      it("refuses an overpayment refund above what is still due, naming the amount, and sends nothing", async () => {
        const { orderId, paid, due } = await orderPaidInPart(getContainer(), api, "1.1")
        const address = ethAddress()
        const tooMuch = paid.minus(due).plus("0.00000001").toFixed()
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds", { ...refundOf(orderId, "overpayment", address), amount: tooMuch }, auth))
        expect(status).toBe(400)
        expect(message).toContain("(field: amount)")
        expect(await cashOutAmountsAtGateway(address)).toEqual([])
      })
    })

    describe("Medusa's plain refund of an order paid in crypto", () => {
      it("is refused with a message saying how to refund in crypto", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const widget = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        const { status, message } = await requestFailure(admin().post(`/admin/payments/${widget.data.payments[0].payment_id}/refund`, { amount: 1 }, auth))
        expect(status).toBe(400)
        expect(message).toContain("Refund in crypto")
      })
    })

    describe("settings", () => {
      it("shows whether the key is set, never the key", async () => {
        const { data } = await admin().get("/admin/crypto/settings", auth)
        expect(data.settings).toMatchObject({ api_key_set: true, provider_id: CRYPTO_PROVIDER_ID })
        expect(JSON.stringify(data)).not.toContain(gateway.shop.secretKey)
      })

      it("saves settings that the next read puts in effect", async () => {
        const body = { accepted_coins: ["BTC", "LTC"], default_coin: "LTC", invoice_lifetime_minutes: 30, order_on_detection: false, underpaid_tolerance_percent: "0.5" }
        await admin().post("/admin/crypto/settings", body, auth)
        const { data } = await admin().get("/admin/crypto/settings", auth)
        expect(data.settings.effective).toEqual({ accepted_coins: ["BTC", "LTC"], default_coin: "LTC", invoice_lifetime_minutes: 30, order_on_detection: false, underpaid_tolerance_percent: "0.5", order_rules: [], protect_order_status: true, order_outcomes: { expired_unpaid: "cancel", underpaid: "cancel", overpaid: "capture", error: "wait" } })
      })

      it("applies saved settings to the next checkout without a restart", async () => {
        await admin().post("/admin/crypto/settings", { accepted_coins: ["LTC"], default_coin: "LTC", invoice_lifetime_minutes: 30 }, auth)
        const store = await createCryptoStore(getContainer())
        const { txnId } = await startCryptoCheckout(api, store, {})
        const invoice = await gateway.client().operations.retrieve(txnId)
        expect(invoice.psys_cid).toBe("LTC")
      })

      it("refuses a default coin outside the accepted coins, naming the field", async () => {
        const { status, message } = await requestFailure(admin().post("/admin/crypto/settings", { accepted_coins: ["BTC"], default_coin: "LTC" }, auth))
        expect(status).toBe(400)
        expect(message).toContain("default_coin")
      })

      it("refuses an accepted coin the gateway does not list, naming the field", async () => {
        const { status, message } = await requestFailure(admin().post("/admin/crypto/settings", { accepted_coins: ["BTC", "DOGE"] }, auth))
        expect(status).toBe(400)
        expect(message).toContain("DOGE")
        expect(message).toContain("(field: accepted_coins)")
      })

      it("tests the connection with the configured key", async () => {
        const { data } = await admin().post("/admin/crypto/settings/test", {}, auth)
        expect(data).toMatchObject({ ok: true })
        expect(JSON.stringify(data)).not.toContain(gateway.shop.secretKey)
      })
    })
    describe("refunds the shopper claims (docs/money-out.md#refunds-the-shopper-claims)", () => {
      beforeEach(async () => {
        // Back to the provider's own options: the settings tests above leave LTC as the only coin.
        await admin().post(
          "/admin/crypto/settings",
          { accepted_coins: null, default_coin: null, invoice_lifetime_minutes: null, order_on_detection: null, underpaid_tolerance_percent: null },
          auth
        )
      })

      it("starts a refund without an address; the shopper's link shows it, takes one address once, and the merchant sees it waiting, then sent", async () => {
        const container = getContainer()
        const { store, orderId, surplus } = await orderOverpaidInCrypto(gateway, container, api)
        const headers = { headers: storefrontHeaders(store) }

        const created = await admin().post("/admin/crypto/refund-claims", { order_id: orderId, kind: "overpayment" }, auth)
        expect(created.data.claim).toMatchObject({ amount: surplus, psys_cid: "ETH" })
        const link = new URL(created.data.link)
        expect(`${link.origin}${link.pathname}`).toBe("http://localhost:8000/checkout/crypto/refund")
        const token = link.searchParams.get("token") ?? ""
        // The shopper gets the link by e-mail once (docs/notifications.md), through the store's notification provider.
        const notifications = container.resolve<INotificationModuleService>(Modules.NOTIFICATION)
        const mails = await eventually(async () => {
          const found = await notifications.listNotifications({ resource_id: orderId, trigger_type: "crypto.refund.claimable" })
          expect(found).toHaveLength(1)
          return found
        })
        expect(mails[0]).toMatchObject({
          to: "shopper@example.com",
          channel: "email",
          template: "crypto-refund-claimable",
          data: { claim_url: created.data.link, amount_with_coin: `${surplus} ETH`, network: "ETH" },
        })
        const seen = await api.get(`/store/crypto/refund-claims?token=${token}`, headers)
        expect(seen.data.claim).toMatchObject({ status: "waiting", amount: surplus, psys_cid: "ETH", network: "ETH", address: null, tx_url: null })
        const waiting = await admin().get(`/admin/crypto/refund-claims?order_id=${orderId}`, auth)
        expect(waiting.data.claims).toEqual([expect.objectContaining({ status: "waiting", amount: surplus, psys_cid: "ETH", address: null })])
        // Only the token's hash is kept: nothing the admin reads carries the token.
        expect(JSON.stringify(waiting.data)).not.toContain(token)

        const address = ethAddress()
        const claimed = await api.post("/store/crypto/refund-claims", { token, address }, headers)
        expect(claimed.data.claim).toMatchObject({ status: "sent", address, amount: surplus })
        // A double submit asks again with the same key: nothing is sent twice.
        const again = await api.post("/store/crypto/refund-claims", { token, address }, headers)
        expect(again.data.claim).toMatchObject({ status: "sent", address })
        expect(await cashOutAmountsAtGateway(address)).toEqual([surplus])
        const other = ethAddress()
        const refused = await requestFailure(api.post("/store/crypto/refund-claims", { token, address: other }, headers))
        expect(refused.status).toBe(400)
        expect(refused.message).toContain("already claimed")
        expect(await cashOutAmountsAtGateway(other)).toEqual([])
        const sent = await admin().get(`/admin/crypto/refund-claims?order_id=${orderId}`, auth)
        expect(sent.data.claims).toEqual([expect.objectContaining({ status: "sent", address, withdrawal_id: expect.any(String) })])
        expect((await requestFailure(admin().post(`/admin/crypto/refund-claims/${created.data.claim.id}/revoke`, {}, auth))).message).toContain("already claimed")
      })

      it("keeps the gateway's refusal of a claimed address on the claim, which waits for another address", async () => {
        const container = getContainer()
        const { store, orderId, surplus } = await orderOverpaidInCrypto(gateway, container, api)
        const headers = { headers: storefrontHeaders(store) }
        const created = await admin().post("/admin/crypto/refund-claims", { order_id: orderId, kind: "overpayment" }, auth)
        const token = new URL(created.data.link).searchParams.get("token") ?? ""

        // A Bitcoin address for an ETH refund: the store takes any one address, the gateway refuses it (spec §7).
        const wrong = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"
        const refused = await requestFailure(api.post("/store/crypto/refund-claims", { token, address: wrong }, headers))
        expect(refused.status).toBeGreaterThanOrEqual(400)
        expect(refused.status).toBeLessThan(500)
        const waiting = await api.get(`/store/crypto/refund-claims?token=${token}`, headers)
        expect(waiting.data.claim).toMatchObject({ status: "waiting", address: null })
        expect(waiting.data.claim.error).toContain("not a valid ETH address")

        const address = ethAddress()
        const claimed = await api.post("/store/crypto/refund-claims", { token, address }, headers)
        expect(claimed.data.claim).toMatchObject({ status: "sent", address, amount: surplus, error: null })
        expect(await cashOutAmountsAtGateway(wrong)).toEqual([])
      })

      it("a revoked link and an unknown token send nothing and say why", async () => {
        const container = getContainer()
        const store = await createCryptoStore(container)
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
        const { total, precision } = await gateway.dueAt(txnId)
        await gateway.control().pay(txnId, { amount: total.times("1.1").toDecimalPlaces(precision, Decimal.ROUND_UP).toFixed() })
        await callbacksDeliveredAndProcessed(gateway.sandbox, container)
        const [orderId] = await orderIdsForCart(container, store.cartId)
        const headers = { headers: storefrontHeaders(store) }
        const created = await admin().post("/admin/crypto/refund-claims", { order_id: orderId, kind: "overpayment", expires_in_hours: 2 }, auth)
        const token = new URL(created.data.link).searchParams.get("token") ?? ""
        await admin().post(`/admin/crypto/refund-claims/${created.data.claim.id}/revoke`, {}, auth)

        expect((await api.get(`/store/crypto/refund-claims?token=${token}`, headers)).data.claim.status).toBe("revoked")
        const address = ethAddress()
        const refused = await requestFailure(api.post("/store/crypto/refund-claims", { token, address }, headers))
        expect(refused).toMatchObject({ status: 400, message: expect.stringContaining("withdrawn") })
        expect(await cashOutAmountsAtGateway(address)).toEqual([])
        const unknown = await requestFailure(api.get(`/store/crypto/refund-claims?token=${"A".repeat(43)}`, headers))
        expect(unknown).toMatchObject({ status: 404, message: "This refund link is not valid" })
        const malformed = await requestFailure(api.get("/store/crypto/refund-claims?token=short", headers))
        expect(malformed.status).toBe(400)
        expect(malformed.message).toContain("token")
      })
    })

    describe("setting up in one sitting: the callback URL and its check (docs/troubleshooting.md#check-the-callback-url)", () => {
      /** The URL the app's provider entries were configured with (`backendUrl`, integration-tests/app). */
      const backendUrl = (): string => String(process.env.MPC_TEST_BACKEND_URL)
      const cryptoModule = () => getContainer().resolve<CryptoModuleService>(CRYPTO_MODULE)
      type Settings = Serialized<AdminCryptoSettingsResponse>["settings"]

      beforeEach(async () => {
        // Back to the provider's own options: the settings tests leave LTC as the only coin.
        await admin().post(
          "/admin/crypto/settings",
          { accepted_coins: null, default_coin: null, invoice_lifetime_minutes: null, order_on_detection: null, underpaid_tolerance_percent: null },
          auth
        )
      })
      const endpoint = (settings: Settings, providerId: string) => settings.callback_endpoints.find((candidate) => candidate.provider_id === providerId)

      /**
       * Runs `action` while the app's configuration gives the provider entry `entryId` another
       * `backendUrl`, as a deployment whose public URL leads elsewhere: the config module the routes
       * read is swapped for a copy (the app reads its configuration at boot only), then put back.
       */
      async function withBackendUrl<T>(entryId: string, url: string, action: () => Promise<T>): Promise<T> {
        const container = getContainer()
        const config = container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
        const payment = config.modules?.[Modules.PAYMENT] as { options: { providers: Array<{ id: string; options: Record<string, unknown> }> } }
        const providers = payment.options.providers.map((provider) => (provider.id === entryId ? { ...provider, options: { ...provider.options, backendUrl: url } } : provider))
        const changed: ConfigModule = { ...config, modules: { ...config.modules, [Modules.PAYMENT]: { ...payment, options: { ...payment.options, providers } } } }
        container.register(ContainerRegistrationKeys.CONFIG_MODULE, asValue(changed))
        try {
          return await action()
        } finally {
          container.register(ContainerRegistrationKeys.CONFIG_MODULE, asValue(config))
        }
      }

      /** An nginx that answers every request 404, as a proxy with no route to the store does; the requests it got. */
      async function nginxAnswering404(): Promise<{ url: string; requests: Array<{ path: string; body: string }>; server: Server }> {
        const requests: Array<{ path: string; body: string }> = []
        const server = createServer((req, res) => {
          const chunks: Buffer[] = []
          req.on("data", (chunk: Buffer) => chunks.push(chunk))
          req.on("end", () => {
            requests.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") })
            res.writeHead(404, { "content-type": "text/html", server: "nginx/1.25.3" })
            res.end("<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
          })
        })
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
        return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server }
      }

      it("shows each provider entry's callback URL, and the last verified callback once a paid checkout's callback arrived", async () => {
        const before = await admin().get("/admin/crypto/settings", auth)
        expect(endpoint(before.data.settings, CRYPTO_PROVIDER_ID)).toMatchObject({ callback_url: callbackRouteOf(backendUrl()) })
        // The plain shop never sent a callback: its entry has none yet.
        expect(endpoint(before.data.settings, PLAIN_PROVIDER_ID)).toEqual({
          provider_id: PLAIN_PROVIDER_ID,
          callback_url: `${backendUrl()}/hooks/crypto/crypto_plain?json=true`,
          last_callback: null,
        })

        const startedAt = Date.now()
        const store = await createCryptoStore(getContainer())
        const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
        await gateway.control().pay(txnId)
        await callbacksDeliveredAndProcessed(gateway.sandbox, getContainer())

        const { data } = await admin().get("/admin/crypto/settings", auth)
        const shown = endpoint(data.settings, CRYPTO_PROVIDER_ID)
        expect(shown).toMatchObject({ callback_url: callbackRouteOf(backendUrl()), last_callback: { ipn_type: "invoice", txn_id: txnId, status: "completed" } })
        const receivedAt = Date.parse(shown?.last_callback?.received_at ?? "")
        expect(receivedAt).toBeGreaterThanOrEqual(startedAt - 1000)
        expect(receivedAt).toBeLessThanOrEqual(Date.now())
        expect(JSON.stringify(data)).not.toContain(gateway.shop.secretKey)
      })

      it("checks the callback URL against the running store: this store answered, and the test callback is not stored", async () => {
        const { data } = await admin().post("/admin/crypto/settings/callback-check", {}, auth)
        expect(data).toEqual({
          provider_id: CRYPTO_PROVIDER_ID,
          url: callbackRouteOf(backendUrl()),
          answered_by_this_store: true,
          status: 200,
          detail: "This store answered: callbacks will arrive.",
          elapsed_ms: expect.any(Number),
        })
        expect(JSON.stringify(data)).not.toContain(gateway.shop.secretKey)
        expect(await cryptoModule().listCryptoCallbacks({ ipn_type: "test" })).toEqual([])
      })

      it("names what answered at a public URL that leads elsewhere: an nginx's 404 with its body", async () => {
        const nginx = await nginxAnswering404()
        try {
          const { settings, check } = await withBackendUrl("crypto_plain", nginx.url, async () => ({
            settings: (await admin().get("/admin/crypto/settings", auth)).data.settings,
            check: (await admin().post("/admin/crypto/settings/callback-check", { provider_id: PLAIN_PROVIDER_ID }, auth)).data,
          }))
          const url = `${nginx.url}/hooks/crypto/crypto_plain?json=true`
          // The page shows the URL the check posted to.
          expect(endpoint(settings, PLAIN_PROVIDER_ID)).toMatchObject({ callback_url: url })
          expect(check).toMatchObject({ provider_id: PLAIN_PROVIDER_ID, url, answered_by_this_store: false, status: 404 })
          expect(check.detail).toMatch(/^Something else answered: HTTP 404 from nginx\/1\.25\.3: "<html> <head><title>404 Not Found<\/title><\/head>/)
          expect(check.detail).toContain("<center>nginx</center>")
          expect(nginx.requests).toEqual([{ path: "/hooks/crypto/crypto_plain?json=true", body: expect.stringContaining('"ipn_type":"test"') }])
          expect(JSON.stringify({ check, requests: nginx.requests })).not.toContain(gateway.plainShop.secretKey)
        } finally {
          await new Promise((resolve) => nginx.server.close(resolve))
        }
      })

      it("answers a signed test callback with its nonce and refuses one with a wrong signature (401); neither is stored", async () => {
        const nonce = randomBytes(16).toString("hex")
        const post = (secretKey: string) => {
          const signed = signCallback(testCallbackFields(nonce), { secretKey, format: "json" })
          return api.post(callbackRouteOf(""), signed.body, { headers: { "content-type": signed.contentType } })
        }
        const refused = await requestFailure(post("not-the-shops-key"))
        expect(refused).toEqual({ status: 401, message: "Invalid callback signature" })
        expect((await post(gateway.shop.secretKey)).data).toEqual({ test: true, provider_id: CRYPTO_PROVIDER_ID, txn_id: nonce })
        expect(await cryptoModule().listCryptoCallbacks({ txn_id: nonce })).toEqual([])
      })
    })
  },
})
