/**
 * Contract: the real GatewayClient against a running sandbox over HTTP, for every endpoint of
 * spec §4 and every error of spec §7.
 */
import { createHmac } from "node:crypto"

import Decimal from "decimal.js"
import { parse as parseLossless, stringify as stringifyLossless } from "lossless-json"

import {
  GatewayApiError,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayNotFoundError,
  GatewayServerError,
  GatewayUnprocessableEntityError,
  type GatewayClient,
} from "../../src/gateway"
import { defaultSeed, startSandbox, type RunningSandbox, type SandboxShop } from "../../src/sandbox"
import { clientFor, controlOf, dataOf, raw, shopOf } from "./helpers"

// Over real HTTP to a running sandbox: on a loaded CI machine a test can pass jest's default 5 s.
// Speed is not what these tests check.
jest.setTimeout(60_000)

const T0 = Date.UTC(2030, 5, 1, 8, 0, 0)
const BTC_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
const ETH_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"
const TRX_ADDRESS = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"

let sandbox: RunningSandbox
let wl: SandboxShop
let plain: SandboxShop
let locked: SandboxShop
let wlClient: GatewayClient
let plainClient: GatewayClient
let order = 0
const nextOrder = (): string => `api-order-${++order}`

beforeAll(async () => {
  const seed = defaultSeed()
  const plainSeed = seed.shops.find((s) => s.id === "shop_plain_demo")
  if (plainSeed === undefined) {
    throw new Error("seed lacks shop_plain_demo")
  }
  // A balance below the TRX network fee (1.1), for error 115.
  plainSeed.balances.TRX = "0.5"
  sandbox = await startSandbox({ port: 0, seed, frozenClock: T0, tickIntervalMs: 0 })
  wl = shopOf(sandbox, "white-label")
  plain = shopOf(sandbox, "plain")
  locked = shopOf(sandbox, "locked")
  wlClient = clientFor(sandbox, wl)
  plainClient = clientFor(sandbox, plain)
})

afterAll(async () => {
  await sandbox.close()
})

describe("GET /invoices/new (spec §4.1)", () => {
  it("a plain shop gets txn_id, invoice_url and invoice_total_sum only", async () => {
    const invoice = await plainClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", currency: "BTC", amount: "0.01" })
    expect(Object.keys(invoice).filter((k) => invoice[k] !== undefined && invoice[k] !== null).sort()).toEqual([
      "invoice_total_sum",
      "invoice_url",
      "txn_id",
    ])
  })

  it("a white-label shop gets every field of spec §2.1", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", currency: "LTC", amount: "1.5" })
    for (const field of [
      "txn_id", "invoice_url", "amount", "pending_amount", "wallet_hash", "psys_cid", "currency", "status", "source_currency",
      "source_rate", "expire_utc", "expected_confirmations", "qr_code", "verify_hash", "invoice_commission", "invoice_sum", "invoice_total_sum",
    ]) {
      expect([field, invoice[field] !== undefined && invoice[field] !== null]).toEqual([field, true])
    }
  })

  it("the white-label verify_hash is the HMAC-SHA1 of the compact JSON of the other fields", async () => {
    const answer = await raw(sandbox, "/api/v1/invoices/new", { api_key: wl.secretKey, order_number: nextOrder(), order_name: "Mug", amount: "0.01" })
    const data = (parseLossless(answer.text) as { data: Record<string, unknown> }).data
    const { verify_hash: hash, ...rest } = data
    expect(createHmac("sha1", wl.secretKey).update(stringifyLossless(rest) ?? "").digest("hex")).toBe(hash)
  })

  it("a fiat amount converts at the shop's rate, rounded up to the coin precision", async () => {
    const invoice = await wlClient.invoices.create({
      order_number: nextOrder(),
      order_name: "Mug",
      currency: "BTC",
      source_currency: "EUR",
      source_amount: "100",
    })
    const expected = new Decimal("100").div(new Decimal("64250.37").times("0.92")).toDecimalPlaces(8, Decimal.ROUND_UP)
    expect([invoice.amount?.toFixed(), invoice.source_rate?.toFixed()]).toEqual([expected.toFixed(), "59110.3404"])
  })

  it("when the client pays the commission, invoice_total_sum = invoice_sum + invoice_commission", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", currency: "BTC", amount: "1" })
    expect([invoice.invoice_sum?.toFixed(), invoice.invoice_commission?.toFixed(), invoice.invoice_total_sum?.toFixed()]).toEqual([
      "1",
      "0.015",
      "1.015",
    ])
  })

  it("when the shop pays the commission, invoice_total_sum is the amount", async () => {
    const invoice = await plainClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", currency: "BTC", amount: "1" })
    expect(invoice.invoice_total_sum?.toFixed()).toBe("1")
  })

  it("expire_min sets expire_utc from the sandbox clock", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", amount: "0.01", expire_min: 45 })
    expect(invoice.expire_utc).toBe(T0 / 1000 + 45 * 60)
  })

  it("without currency the shop's default coin is chosen", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", amount: "0.01" })
    expect(invoice.psys_cid).toBe("BTC")
  })

  it("a test-network coin answers its psys_cid and its currency code apart", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", currency: "BTC_TEST", amount: "0.01" })
    expect([invoice.psys_cid, invoice.currency]).toEqual(["BTC_TEST", "BTC"])
  })

  it("return_existing returns the invoice already made for the order number", async () => {
    const orderNumber = nextOrder()
    const first = await wlClient.invoices.create({ order_number: orderNumber, order_name: "Mug", amount: "0.01" })
    const again = await wlClient.invoices.create({ order_number: orderNumber, order_name: "Mug", amount: "0.01", return_existing: true })
    expect(again.txn_id).toBe(first.txn_id)
  })

  it("a second invoice for the same order number is a validation error on order_number", async () => {
    const orderNumber = nextOrder()
    await wlClient.invoices.create({ order_number: orderNumber, order_name: "Mug", amount: "0.01" })
    const error = await wlClient.invoices.create({ order_number: orderNumber, order_name: "Mug", amount: "0.01" }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && Object.keys(error.fieldErrors)).toEqual(["order_number"])
  })

  it("a missing order_number is error 103 naming it (HTTP 400)", async () => {
    const answer = await raw(sandbox, "/api/v1/invoices/new", { api_key: wl.secretKey, order_name: "Mug", amount: "0.01" })
    const data = (answer.json as { data: { code: number; message: string } }).data
    expect([answer.status, data.code, Object.keys(JSON.parse(data.message))]).toEqual([400, 103, ["order_number"]])
  })

  it("an unsupported currency is error 105", async () => {
    const error = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", currency: "DOGE", amount: "1" }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && [error.code, Object.keys(error.fieldErrors)]).toEqual([105, ["currency"]])
  })

  it("allowed_psys_cids must contain the invoice currency", async () => {
    const error = await wlClient.invoices
      .create({ order_number: nextOrder(), order_name: "Mug", currency: "BTC", amount: "0.01", allowed_psys_cids: ["LTC", "ETH"] })
      .catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && Object.keys(error.fieldErrors)).toEqual(["allowed_psys_cids"])
  })

  it("redirect_to_invoice answers 302 to the invoice page for a plain shop", async () => {
    const answer = await raw(sandbox, "/api/v1/invoices/new", {
      api_key: plain.secretKey,
      order_number: nextOrder(),
      order_name: "Mug",
      amount: "0.01",
      redirect_to_invoice: "1",
    })
    expect([answer.status, answer.headers.get("location")?.startsWith(`${sandbox.url}/invoice/`)]).toEqual([302, true])
  })

  it("redirect_to_invoice is refused for a white-label shop", async () => {
    const answer = await raw(sandbox, "/api/v1/invoices/new", {
      api_key: wl.secretKey,
      order_number: nextOrder(),
      order_name: "Mug",
      amount: "0.01",
      redirect_to_invoice: "1",
    })
    expect([answer.status, (answer.json as { data: { code: number } }).data.code]).toEqual([422, 105])
  })

  it("the invoice page shows the address and a QR image", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Mug", amount: "0.01" })
    const page = await fetch(invoice.invoice_url ?? "")
    const html = await page.text()
    expect([page.status, html.includes(invoice.wallet_hash ?? "?"), html.includes("data:image/png;base64,")]).toEqual([200, true, true])
  })

  it("the invoice page escapes merchant text", async () => {
    const invoice = await plainClient.invoices.create({ order_number: nextOrder(), order_name: "<script>alert(1)</script>", amount: "0.01" })
    const html = await (await fetch(invoice.invoice_url ?? "")).text()
    expect([html.includes("<script>alert(1)"), html.includes("&lt;script&gt;alert(1)")]).toEqual([false, true])
  })

  it("a wrong api_key is HTTP 401", async () => {
    const client = clientFor(sandbox, { ...wl, secretKey: "not-a-key" })
    await expect(client.invoices.create({ order_number: nextOrder(), order_name: "Mug", amount: "0.01" })).rejects.toBeInstanceOf(
      GatewayAuthenticationError
    )
  })
})

describe("GET /operations and /operations/{id} (spec §4.3, §4.4)", () => {
  it("a page has _links with per-page hrefs and _meta", async () => {
    for (let i = 0; i < 3; i += 1) {
      await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Paging", amount: "0.01" })
    }
    const page = await wlClient.operations.list({ limit: 2 })
    expect([page.operations.length, page._meta?.perPage, page._links.next?.href.includes("per-page=2")]).toEqual([2, 2, true])
  })

  it("paging links never carry the api_key", async () => {
    const answer = await raw(sandbox, "/api/v1/operations", { api_key: wl.secretKey, limit: "1" })
    expect(answer.text.includes(wl.secretKey)).toBe(false)
  })

  it("the page size is at most 50", async () => {
    const page = await wlClient.operations.list({ limit: 500 })
    expect(page._meta?.perPage).toBe(50)
  })

  it("the default page size is 20", async () => {
    const page = await wlClient.operations.list()
    expect(page._meta?.perPage).toBe(20)
  })

  it("iterate walks every page", async () => {
    const first = await wlClient.operations.list({ limit: 3 })
    let seen = 0
    for await (const operation of wlClient.operations.iterate({ limit: 3 })) {
      seen += operation.id.length > 0 ? 1 : 0
    }
    expect(seen).toBe(first._meta?.totalCount)
  })

  it("search finds an invoice by its order number", async () => {
    const orderNumber = nextOrder()
    const invoice = await wlClient.invoices.create({ order_number: orderNumber, order_name: "Search", amount: "0.01" })
    const page = await wlClient.operations.list({ search: orderNumber })
    expect(page.operations.map((o) => o.id)).toEqual([invoice.txn_id])
  })

  it("the type filter keeps only that type", async () => {
    await wlClient.operations.withdraw({ currency: "LTC", type: "cash_out", to: "ltc1qg82ffcf0kqzaz3hmqfrq9y3p5p3yrc2ge8tdgu", amount: "0.5" })
    const page = await wlClient.operations.list({ type: "cash_out" })
    expect(page.operations.length > 0 && page.operations.every((o) => o.type === "cash_out")).toBe(true)
  })

  it("the detail view of a white-label invoice has the detail fields, amounts as Decimals", async () => {
    const invoice = await wlClient.invoices.create({ order_number: nextOrder(), order_name: "Detail", currency: "BTC", amount: "0.02" })
    const op = await wlClient.operations.retrieve(invoice.txn_id)
    expect([op.type, op.status, op.commissionPayment, op.commis_percent, Decimal.isDecimal(op.sum), op.created_at_utc]).toEqual([
      "invoice",
      "new",
      1,
      "1.5",
      true,
      T0 / 1000,
    ])
  })

  it("a plain shop's operation has the base fields only (spec §2.2)", async () => {
    const invoice = await plainClient.invoices.create({ order_number: nextOrder(), order_name: "Detail", amount: "0.01" })
    const op = await plainClient.operations.retrieve(invoice.txn_id)
    expect([op.id, op.type, op.status, op.psys_cid ?? null, op.tx_url]).toEqual([invoice.txn_id, "invoice", "new", null, []])
  })

  it("a missing operation is 404 with code 111", async () => {
    const error = await wlClient.operations.retrieve("INV-DOES-NOT-EXIST").catch((e: unknown) => e)
    expect(error instanceof GatewayNotFoundError && error.code).toBe(111)
  })

  it("another shop's operation does not exist for this key", async () => {
    const invoice = await plainClient.invoices.create({ order_number: nextOrder(), order_name: "Mine", amount: "0.01" })
    await expect(wlClient.operations.retrieve(invoice.txn_id)).rejects.toBeInstanceOf(GatewayNotFoundError)
  })
})

describe("GET /operations/withdraw (spec §4.2)", () => {
  it("a cash_out answers 201 and debits the amount plus the fee", async () => {
    const before = (await wlClient.balances.retrieve("BTC")).balance
    const result = await wlClient.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.1", feePlan: "priority" })
    const after = (await wlClient.balances.retrieve("BTC")).balance
    expect([result.status, result.wallet_hash, result.fee?.toFixed(), before.minus(after).toFixed()]).toEqual([
      "completed",
      BTC_ADDRESS,
      "0.00005",
      "0.10005",
    ])
  })

  it("a mass_cash_out pays every address its amount", async () => {
    const result = await wlClient.operations.withdraw({
      currency: "ETH",
      type: "mass_cash_out",
      to: [ETH_ADDRESS, "0x000000000000000000000000000000000000dEaD"],
      amount: ["0.1", "0.25"],
    })
    expect(Object.entries(result.sendmany ?? {}).map(([a, v]) => [a, v.toFixed()])).toEqual([
      [ETH_ADDRESS, "0.1"],
      ["0x000000000000000000000000000000000000dEaD", "0.25"],
    ])
  })

  it("an amount above the balance is error 116", async () => {
    const error = await wlClient.operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "1000" }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && error.code).toBe(116)
  })

  it("a balance below the network fee is error 115", async () => {
    const error = await plainClient.operations.withdraw({ currency: "TRX", type: "cash_out", to: TRX_ADDRESS, amount: "0.1" }).catch((e: unknown) => e)
    expect(error instanceof GatewayBadRequestError && error.code).toBe(115)
  })

  it("an address of another network is a validation error on to", async () => {
    const error = await wlClient.operations.withdraw({ currency: "BTC", type: "cash_out", to: ETH_ADDRESS, amount: "0.1" }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && Object.keys(error.fieldErrors)).toEqual(["to"])
  })

  it("a caller outside the shop's Request IP list is refused with HTTP 403", async () => {
    const error = await clientFor(sandbox, locked)
      .operations.withdraw({ currency: "BTC", type: "cash_out", to: BTC_ADDRESS, amount: "0.1" })
      .catch((e: unknown) => e)
    expect(error instanceof GatewayApiError && [error.status, error.code]).toEqual([403, 403])
  })
})

describe("fee, commission and fee plans (spec §4.5 – §4.7)", () => {
  it("fee plans of a UTXO coin have conf_target and value", async () => {
    const plans = await wlClient.operations.feePlans("BTC")
    expect([plans.normal?.conf_target, plans.normal?.value?.toFixed(), plans.priority?.value?.toFixed()]).toEqual([6, "0.00002", "0.00005"])
  })

  it("fee plans of an EVM coin have gasLimit, gasPrice and value", async () => {
    const plans = await wlClient.operations.feePlans("ETH")
    expect([plans.normal?.gasLimit, plans.normal?.gasPrice?.toFixed(), plans.normal?.value?.toFixed()]).toEqual(["21000", "20", "0.00042"])
  })

  it("fee plans of an unsupported coin are error 105", async () => {
    const error = await wlClient.operations.feePlans("NOPE").catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && error.code).toBe(105)
  })

  it("the fee estimate names coin, currency and plan", async () => {
    const fee = await wlClient.operations.fee("USDT_ETH", { addresses: [ETH_ADDRESS], amounts: ["10"], feePlan: "normal" })
    expect([fee.fee.toFixed(), fee.psys_cid, fee.currency, fee.plan]).toEqual(["4.05", "USDT_ETH", "USDT", "normal"])
  })

  it("a fee estimate above the balance is error 116", async () => {
    const error = await wlClient.operations.fee("BTC", { addresses: [BTC_ADDRESS], amounts: ["5000"] }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && error.code).toBe(116)
  })

  it("the commission estimate of a withdrawal gives commission, fee, plan and plans", async () => {
    const estimate = await wlClient.operations.commission("ETH", { addresses: [ETH_ADDRESS], amounts: ["1"], type: "cash_out", feePlan: "priority" })
    expect([estimate.commission.toFixed(), estimate.fee?.toFixed(), estimate.plan, estimate.plans?.priority?.gasLimit]).toEqual([
      "0",
      "0.00084",
      "priority",
      "21000",
    ])
  })

  it("a commission estimate above the balance is error 116", async () => {
    const error = await wlClient.operations.commission("BTC", { addresses: [BTC_ADDRESS], amounts: ["5000"], type: "cash_out" }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && error.code).toBe(116)
  })
})

describe("currencies and balances (spec §4.8, §4.9)", () => {
  it("the list holds every seeded coin with its USD rate", async () => {
    const list = await wlClient.currencies.list()
    expect(list.map((c) => [c.cid, c.currency, c.fiat])).toEqual(
      ["BTC", "BTC_TEST", "LTC", "ETH", "USDT_ETH", "TRX", "USDT_TRX"].map((cid) => [cid, expect.any(String), "USD"])
    )
  })

  it("the fiat path converts the rates", async () => {
    const btc = (await wlClient.currencies.list("GBP")).find((c) => c.cid === "BTC")
    expect([btc?.fiat, btc?.fiat_rate?.toFixed()]).toEqual(["GBP", new Decimal("64250.37").times("0.79").toFixed()])
  })

  it("an unsupported fiat is error 105 (HTTP 422)", async () => {
    const error = await wlClient.currencies.list("XYZ").catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && error.code).toBe(105)
  })

  it("a balance names its coin and currency", async () => {
    const balance = await wlClient.balances.retrieve("USDT_TRX")
    expect([balance.psys_cid, balance.currency, Decimal.isDecimal(balance.balance)]).toEqual(["USDT_TRX", "USDT", true])
  })

  it("the balance of an unsupported coin is error 105", async () => {
    const error = await wlClient.balances.retrieve("NOPE").catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError && error.code).toBe(105)
  })
})

describe("deposits (spec §4.10)", () => {
  it("one psys_cid gives one deposit tied to the uid", async () => {
    const deposit = await wlClient.deposits.create({ psys_cid: "LTC", uid: "customer-1" })
    expect([deposit.uid, deposit.psys_cid, deposit.hash.startsWith("ltc1q")]).toEqual(["customer-1", "LTC", true])
  })

  it("several psys_cids give an array of deposits", async () => {
    const deposits = await wlClient.deposits.create({ psys_cid: ["BTC", "ETH"], uid: "customer-2" })
    expect(deposits.map((d) => d.psys_cid)).toEqual(["BTC", "ETH"])
  })

  it("the address stays the same for the same uid", async () => {
    const a = await wlClient.deposits.create({ psys_cid: "TRX", uid: "customer-3" })
    const b = await wlClient.deposits.create({ psys_cid: "TRX", uid: "customer-3" })
    expect(b.hash).toBe(a.hash)
  })

  it("the list filters by uid", async () => {
    await wlClient.deposits.create({ psys_cid: "BTC", uid: "customer-4" })
    const list = await wlClient.deposits.list({ uid: "customer-4" })
    expect(list.map((d) => [d.uid, d.psys_cid])).toEqual([["customer-4", "BTC"]])
  })

  it("both path spellings serve the same deposits", async () => {
    const a = await raw(sandbox, "/api/v1/shops/deposit/new", { api_key: wl.secretKey, psys_cid: "ETH", uid: "customer-5" })
    const b = await raw(sandbox, "/api/v1/shop/deposit/new", { api_key: wl.secretKey, psys_cid: "ETH", uid: "customer-5" })
    expect(dataOf<{ hash: string }>(b).hash).toBe(dataOf<{ hash: string }>(a).hash)
  })

  it("a shop without white-label gets error 400", async () => {
    const error = await plainClient.deposits.create({ psys_cid: "BTC", uid: "x" }).catch((e: unknown) => e)
    expect(error instanceof GatewayBadRequestError && error.code).toBe(400)
  })

  it("an unknown key gets error 401 saying the resource does not exist", async () => {
    const error = await clientFor(sandbox, { ...wl, secretKey: "nobody" }).deposits.list().catch((e: unknown) => e)
    expect(error instanceof GatewayAuthenticationError && [error.code, error.gatewayMessage]).toEqual([401, "The specified resource does not exist."])
  })

  it("a missing uid is error 103", async () => {
    const answer = await raw(sandbox, "/api/v1/shops/deposit/new", { api_key: wl.secretKey, psys_cid: "BTC" })
    expect([answer.status, (answer.json as { data: { code: number } }).data.code]).toEqual([400, 103])
  })

  it("a uid over 255 characters is refused, naming uid", async () => {
    const answer = await raw(sandbox, "/api/v1/shops/deposit/new", { api_key: wl.secretKey, psys_cid: "BTC", uid: "u".repeat(256) })
    const data = (answer.json as { data: { message: string } }).data
    expect([answer.status, Object.keys(JSON.parse(data.message))]).toEqual([422, ["uid"]])
  })
})

describe("exchanges (spec §4.11)", () => {
  it("the list gives the exchange-capable coins", async () => {
    const list = (await wlClient.exchanges.currencies()) as { psys_cid: string }[]
    expect(list.map((c) => c.psys_cid)).toEqual(["BTC", "LTC", "ETH", "USDT_ETH", "TRX", "USDT_TRX"])
  })

  it("an estimate converts from_amount into to_amount", async () => {
    const estimate = await wlClient.exchanges.estimate({ from_currency: "BTC", to_currency: "USDT_TRX", from_amount: "0.01" })
    expect(String(estimate.to_amount)).toBe("635.951472")
  })

  it("an estimate needs exactly one of from_amount and to_amount", async () => {
    const error = await wlClient.exchanges.estimate({ from_currency: "BTC", to_currency: "ETH" }).catch((e: unknown) => e)
    expect(error instanceof GatewayUnprocessableEntityError).toBe(true)
  })

  it("a created exchange answers 201 and can be read back", async () => {
    const created = await wlClient.exchanges.create({ from_currency: "LTC", to_currency: "ETH", from_amount: "2", to_address: ETH_ADDRESS })
    const read = await wlClient.exchanges.retrieve(created.id ?? "")
    expect([created.status, read.id, read.to_address]).toEqual(["processing", created.id, ETH_ADDRESS])
  })

  it("an unknown exchange is 404", async () => {
    await expect(wlClient.exchanges.retrieve("EX-NOPE")).rejects.toBeInstanceOf(GatewayNotFoundError)
  })

  it("the list answers 404 with no body when the IP is not allowed or the exchange API is off", async () => {
    const answer = await raw(sandbox, "/api/v1/exchanges/list", { api_key: locked.secretKey })
    expect([answer.status, answer.text]).toEqual([404, ""])
  })

  it("an unknown key is 401 for exchanges", async () => {
    await expect(clientFor(sandbox, { ...wl, secretKey: "nobody" }).exchanges.currencies()).rejects.toBeInstanceOf(GatewayAuthenticationError)
  })
})

describe("errors common to every endpoint (spec §7)", () => {
  it("an internal error is HTTP 500 with code 108", async () => {
    await controlOf(sandbox, wl).fault({ path: "/api/v1/balances", mode: "5xx" })
    const error = await wlClient.balances.retrieve("BTC").catch((e: unknown) => e)
    expect(error instanceof GatewayServerError && [error.status, error.code]).toEqual([500, 108])
  })

  it("an unknown path is 404 with the error envelope", async () => {
    const answer = await raw(sandbox, "/api/v1/nothing-here", { api_key: wl.secretKey })
    expect([answer.status, (answer.json as { status: string }).status]).toEqual([404, "error"])
  })
})
