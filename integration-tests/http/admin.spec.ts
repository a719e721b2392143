import { randomBytes } from "node:crypto"
import path from "node:path"
import type { IAuthModuleService, IUserModuleService, MedusaContainer } from "@medusajs/framework/types"
import { generateJwtToken, Modules } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosInstance } from "axios"
import { GatewayClient } from "../../src/gateway"
import type { RunningSandbox, SandboxShop } from "../../src/sandbox"
import {
  CRYPTO_PROVIDER_ID,
  createCryptoStore,
  orderIdsForCart,
  requestFailure,
  sandboxControl,
  startCryptoCheckout,
  startTestSandbox,
  type TestSandbox,
} from "./helpers"

jest.setTimeout(180_000)

// The test app (integration-tests/app) signs admin tokens with this secret.
const JWT_SECRET = "test-jwt-secret"
/** Admin calls to the gateway give up after this long, so a dropped answer is seen quickly. */
const ADMIN_TIMEOUT_MS = 3000

let testSandbox: TestSandbox | undefined
let sandbox: RunningSandbox
let shop: SandboxShop
let gateway: GatewayClient

// Declared before the runner's own beforeAll, which boots the app with the environment set here. The
// admin's features (withdrawals, exchanges) are the white-label shop's.
beforeAll(async () => {
  testSandbox = await startTestSandbox({ whiteLabel: true, env: { CRYPTO_ADMIN_GATEWAY_TIMEOUT_MS: String(ADMIN_TIMEOUT_MS) } })
  ;({ sandbox, shop } = testSandbox)
  gateway = new GatewayClient({ baseUrl: sandbox.url, apiKey: shop.secretKey })
})

afterAll(() => testSandbox?.stop())

/** A 10.50 EUR order paid in ETH through the sandbox: returns the placed order's id. */
async function orderPaidInCrypto(container: MedusaContainer, api: AxiosInstance): Promise<string> {
  const store = await createCryptoStore(container)
  const { txnId } = await startCryptoCheckout(api, store, { psys_cid: "ETH" })
  await sandboxControl(sandbox, shop, `/invoices/${txnId}/pay`)
  await sandbox.callbacksIdle()
  const orderIds = await orderIdsForCart(container, store.cartId)
  if (orderIds.length !== 1) throw new Error(`expected one order for the paid cart, found ${orderIds.length}`)
  return orderIds[0]
}

/** An admin user and its bearer token, as Medusa's own integration tests make them. */
async function adminHeaders(container: MedusaContainer): Promise<{ headers: Record<string, string> }> {
  const email = `admin-${randomBytes(4).toString("hex")}@example.com`
  const user = await container.resolve<IUserModuleService>(Modules.USER).createUsers({ email, first_name: "Ada", last_name: "Admin" })
  const identity = await container.resolve<IAuthModuleService>(Modules.AUTH).createAuthIdentities({
    provider_identities: [{ provider: "emailpass", entity_id: email }],
    app_metadata: { user_id: user.id },
  })
  const token = generateJwtToken(
    { actor_id: user.id, actor_type: "user", auth_identity_id: identity.id, app_metadata: { user_id: user.id } },
    { secret: JWT_SECRET, expiresIn: "1d" }
  )
  return { headers: { authorization: `Bearer ${token}` } }
}

const ethAddress = () => `0x${randomBytes(20).toString("hex")}`

/** Withdrawals to `address` that exist at the gateway (the sandbox), whatever our database says. */
async function withdrawalsAtGateway(address: string): Promise<number> {
  let count = 0
  for await (const operation of gateway.operations.iterate({ type: "cash_out", currency: "ETH", limit: 50 })) {
    if (operation.wallet_hash === address) count += 1
  }
  return count
}

const withdrawal = (address: string, amount = "0.01", key = `key-${randomBytes(8).toString("hex")}`) => ({
  idempotency_key: key,
  psys_cid: "ETH",
  recipients: [{ address, amount }],
  fee_plan: "normal",
})

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    let auth: { headers: Record<string, string> }
    const admin = (): AxiosInstance => api
    beforeEach(async () => {
      auth = await adminHeaders(getContainer())
    })

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
        await sandboxControl(sandbox, shop, "/faults", { path: "/api/v1/operations/withdraw", mode: "timeout", ms: ADMIN_TIMEOUT_MS * 4 })
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

      it("lists the recorded pay_in callbacks", async () => {
        const { data } = await admin().get("/admin/crypto/deposits/callbacks", auth)
        expect(data).toMatchObject({ callbacks: expect.any(Array), count: expect.any(Number) })
      })
    })

    describe("exchanges", () => {
      it("lists exchange currencies and estimates an exchange", async () => {
        const currencies = await admin().get("/admin/crypto/exchanges/currencies", auth)
        expect(currencies.data.currencies).toEqual(expect.any(Array))
        const estimate = await admin().post("/admin/crypto/exchanges/estimate", { from_currency: "ETH", to_currency: "BTC", from_amount: "1" }, auth)
        expect(estimate.data.estimate).toMatchObject({ from_currency: "ETH", to_currency: "BTC" })
      })

      it("refuses to create an exchange the merchant did not confirm", async () => {
        const body = { from_currency: "ETH", to_currency: "BTC", from_amount: "1", to_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }
        const { status, message } = await requestFailure(admin().post("/admin/crypto/exchanges", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("confirmed")
      })

      it("creates a confirmed exchange and reads its status", async () => {
        const body = { from_currency: "ETH", to_currency: "BTC", from_amount: "1", to_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", confirmed: true }
        const created = await admin().post("/admin/crypto/exchanges", body, auth)
        expect(created.status).toBe(201)
        const status = await admin().get(`/admin/crypto/exchanges/${created.data.exchange.id}`, auth)
        expect(status.data.exchange.id).toBe(created.data.exchange.id)
      })
    })

    describe("an order paid in crypto", () => {
      it("shows the invoice, its status history and the refundable amount for the order widget", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
        const { data } = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(data).toMatchObject({ is_crypto: true, currency_code: "eur", payments: [{ captured: "10.5", refunded: "0", refundable: "10.5" }] })
        expect(data.invoices[0]).toMatchObject({ psys_cid: "ETH", session_status: "captured" })
        expect(data.operation).toMatchObject({ status: "completed" })
        expect(data.history.map((h: { status: string }) => h.status)).toContain("completed")
      })

      it("quotes a refund at the gateway's rate, rounded down to the coin's precision", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
        const { data } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const expected = new Decimal("4.25").div(data.quote.rate).toDecimalPlaces(data.quote.precision, Decimal.ROUND_DOWN).toFixed()
        expect(data.quote).toMatchObject({ psys_cid: "ETH", fiat: "EUR", amount: "4.25", coin_amount: expected })
      })

      it("refuses a refund above what is captured and not refunded, naming the amount", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "11" }, auth))
        expect(status).toBe(400)
        expect(message).toContain("(field: amount)")
      })

      it("refuses a refund at a rate that moved away from the confirmed one, naming the rate", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
        const address = ethAddress()
        const body = { idempotency_key: `key-${randomBytes(8).toString("hex")}`, order_id: orderId, amount: "4.25", rate: "1", address }
        const { status, message } = await requestFailure(admin().post("/admin/crypto/refunds", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("(field: rate)")
        expect(await withdrawalsAtGateway(address)).toBe(0)
      })

      it("sends a crypto refund once as a cash_out of the quoted coin amount", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const address = ethAddress()
        const body = { idempotency_key: `key-${randomBytes(8).toString("hex")}`, order_id: orderId, amount: "4.25", rate: quoted.quote.rate, address }
        const first = await admin().post("/admin/crypto/refunds", body, auth)
        const again = await admin().post("/admin/crypto/refunds", body, auth)
        expect(first.data.withdrawal).toMatchObject({ purpose: "refund", status: "completed", order_id: orderId, total_amount: quoted.quote.coin_amount, source_amount: "4.25", source_currency: "EUR" })
        expect(again.data).toMatchObject({ replayed: true, withdrawal: { id: first.data.withdrawal.id } })
        expect(await withdrawalsAtGateway(address)).toBe(1)
      })

      it("records the sent crypto refund as the Medusa refund of the payment", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
        const { data: quoted } = await admin().post("/admin/crypto/refunds/quote", { order_id: orderId, amount: "4.25" }, auth)
        const body = { idempotency_key: `key-${randomBytes(8).toString("hex")}`, order_id: orderId, amount: "4.25", rate: quoted.quote.rate, address: ethAddress() }
        const { data } = await admin().post("/admin/crypto/refunds", body, auth)
        expect(data.withdrawal.refund_id).toMatch(/^ref_/)
        const widget = await admin().get(`/admin/crypto/orders/${orderId}`, auth)
        expect(widget.data.payments[0]).toMatchObject({ refunded: "4.25", refundable: "6.25" })
      })
    })

    describe("Medusa's plain refund of an order paid in crypto", () => {
      it("is refused with a message saying how to refund in crypto", async () => {
        const orderId = await orderPaidInCrypto(getContainer(), api)
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
        expect(JSON.stringify(data)).not.toContain(shop.secretKey)
      })

      it("saves settings that the next read puts in effect", async () => {
        const body = { accepted_coins: ["BTC", "LTC"], default_coin: "LTC", invoice_lifetime_minutes: 30, order_on_detection: false, underpaid_tolerance_percent: "0.5" }
        await admin().post("/admin/crypto/settings", body, auth)
        const { data } = await admin().get("/admin/crypto/settings", auth)
        expect(data.settings.effective).toEqual({ accepted_coins: ["BTC", "LTC"], default_coin: "LTC", invoice_lifetime_minutes: 30, order_on_detection: false, underpaid_tolerance_percent: "0.5" })
      })

      it("applies saved settings to the next checkout without a restart", async () => {
        await admin().post("/admin/crypto/settings", { accepted_coins: ["LTC"], default_coin: "LTC", invoice_lifetime_minutes: 30 }, auth)
        const store = await createCryptoStore(getContainer())
        const { txnId } = await startCryptoCheckout(api, store, {})
        const invoice = await gateway.operations.retrieve(txnId)
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
        expect(JSON.stringify(data)).not.toContain(shop.secretKey)
      })
    })
  },
})
