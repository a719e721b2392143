// The coin picker's figure (GET /store/crypto/currencies, `amount`): what the shopper will send,
// the gateway's commission included when the shopper pays it, so the picker, the payment panel and
// the wallet link say one amount (docs/storefront.md).
import { Decimal } from "decimal.js"
import { GatewayClient, type Currency } from "../../../gateway"
import { createSandbox, defaultSeed, type Sandbox } from "../../../sandbox"
import { amountToSend, type CoinQuote, type CommissionPayer } from "../list-crypto-currencies"

const ltc: CoinQuote = { fiat_rate: "76.4704", precision: "8", invoice_commission_percentage: "1" }

describe("amountToSend", () => {
  it("the issue's cart: 84.90 EUR in LTC is 1.11023351 before the commission and 1.12133585 with it", () => {
    expect(amountToSend("84.90", "EUR", ltc, "shop")).toBe("1.11023351")
    expect(amountToSend("84.90", "EUR", ltc, "shopper")).toBe("1.12133585")
  })

  it("rounds the conversion up to the coin's places: never less than the invoice will ask", () => {
    // 10 / 3 = 3.333…: up to 3.33333334, never 3.33333333.
    expect(amountToSend("10", "EUR", { fiat_rate: "3", precision: "8", invoice_commission_percentage: null }, "shop")).toBe("3.33333334")
  })

  it("adds the commission rounded half-up to the coin's places, as the gateway computes it", () => {
    const coin = { fiat_rate: "1", precision: "2", invoice_commission_percentage: "1" }
    // 1 % of 1.11 is 0.0111: 0.01 (rounded up it would be 0.02, one unit more than the invoice asks).
    expect(amountToSend("1.11", "EUR", coin, "shopper")).toBe("1.12")
    // 1 % of 1.50 is 0.015: half-up, 0.02.
    expect(amountToSend("1.50", "EUR", coin, "shopper")).toBe("1.52")
  })

  it("sends the total in the fiat's minor units, as the provider does (half-up): 84.899 EUR is 84.90", () => {
    expect(amountToSend("84.899", "EUR", ltc, "shopper")).toBe(amountToSend("84.90", "EUR", ltc, "shopper"))
    // JPY has no minor units: 1000.5 JPY is sent as 1001.
    expect(amountToSend("1000.5", "JPY", { fiat_rate: "1", precision: "2", invoice_commission_percentage: null }, "shop")).toBe("1001")
  })

  it("adds no commission when the shop pays it, when the coin has none, or when its percentage is not a decimal", () => {
    expect(amountToSend("84.90", "EUR", ltc, "shop")).toBe("1.11023351")
    expect(amountToSend("84.90", "EUR", { ...ltc, invoice_commission_percentage: "0" }, "shopper")).toBe("1.11023351")
    expect(amountToSend("84.90", "EUR", { ...ltc, invoice_commission_percentage: null }, "shopper")).toBe("1.11023351")
    expect(amountToSend("84.90", "EUR", { fiat_rate: "76.4704", precision: "8", invoice_commission_percentage: null }, "shopper")).toBe("1.11023351")
    expect(amountToSend("84.90", "EUR", { ...ltc, invoice_commission_percentage: "1,5" }, "shopper")).toBe("1.11023351")
  })

  it("uses 8 places when the coin's precision is unknown, and none without a rate", () => {
    expect(amountToSend("1", "EUR", { fiat_rate: "3", precision: null, invoice_commission_percentage: null }, "shop")).toBe("0.33333334")
    expect(amountToSend("84.90", "EUR", { fiat_rate: null, precision: "8", invoice_commission_percentage: null }, "shopper")).toBeNull()
    expect(amountToSend("84.90", "EUR", { fiat_rate: "0", precision: "8", invoice_commission_percentage: null }, "shopper")).toBeNull()
  })
})

/** A coin of the gateway's list (spec §2.4) as the picker reads it: its rate in the fiat, places and commission. */
function quoteOf(coin: Currency): CoinQuote {
  return { fiat_rate: coin.fiat_rate?.toFixed() ?? null, precision: coin.precision ?? null, invoice_commission_percentage: coin.invoice_commission_percentage ?? null }
}

describe("the picker's amount is what the invoice then asks (the sandbox in process)", () => {
  /** The gateway decides who pays from the shop's settings (spec §2.1; the seed's `commission_payer`): one shop each way. */
  const secretKeys: Record<CommissionPayer, string> = { shopper: "sk_sandbox_picker_shopper_pays", shop: "sk_sandbox_picker_shop_pays" }
  let sandbox: Sandbox
  let order = 0
  beforeAll(() => {
    const seed = defaultSeed()
    // Shops without white-label: their invoices draw no QR code, so many of them are quick to make.
    const plain = seed.shops.find((shop) => !shop.white_label)
    if (plain === undefined) throw new Error("the bundled seed has a shop without white-label")
    seed.shops.push(
      { ...plain, id: "shop_picker_shopper", name: "Shoppers pay the commission", user_id: 2001, secret_key: secretKeys.shopper, commission_payer: "client" },
      { ...plain, id: "shop_picker_shop", name: "The shop pays the commission", user_id: 2002, secret_key: secretKeys.shop, commission_payer: "shop" }
    )
    sandbox = createSandbox({ seed, frozenClock: Date.UTC(2030, 0, 1) })
  })
  afterAll(() => sandbox.close())

  const clientOf = (payer: CommissionPayer): GatewayClient =>
    new GatewayClient({ apiKey: secretKeys[payer], baseUrl: sandbox.url, httpAdapter: sandbox.httpAdapter, maxRetries: 0, timeoutMs: 10_000 })

  it.each<CommissionPayer>(["shopper", "shop"])("for every coin and cart, when the %s pays the commission", async (payer) => {
    const client = clientOf(payer)
    const coins = await client.currencies.list("EUR")
    expect(coins.map((coin) => coin.cid)).toEqual(["BTC", "BTC_TEST", "LTC", "ETH", "USDT_ETH", "TRX", "USDT_TRX"])
    const mismatches: string[] = []
    for (const total of ["84.90", "49.90", "19.99", "120", "1000"]) {
      for (const coin of coins) {
        const picker = amountToSend(total, "EUR", quoteOf(coin), payer)
        order += 1
        const invoice = await client.invoices.create({ order_number: `picker-${order}`, order_name: "Picker", currency: coin.cid, source_currency: "EUR", source_amount: total })
        const asked = invoice.invoice_total_sum?.toFixed() ?? null
        if (picker === null || asked === null || !new Decimal(picker).eq(asked)) mismatches.push(`${total} EUR in ${coin.cid}: picker ${picker}, invoice ${asked}`)
      }
    }
    expect(mismatches).toEqual([])
  })

  it("the issue's cart, 84.90 EUR in LTC: 1.12133585 LTC in the picker and on the invoice when the shopper pays, 1.11023351 when the shop does", async () => {
    for (const [payer, expected] of [["shopper", "1.12133585"], ["shop", "1.11023351"]] as const) {
      const client = clientOf(payer)
      const coin = (await client.currencies.list("EUR")).find((candidate) => candidate.cid === "LTC")
      if (coin === undefined) throw new Error("the bundled seed lists LTC")
      order += 1
      const invoice = await client.invoices.create({ order_number: `picker-${order}`, order_name: "Picker", currency: "LTC", source_currency: "EUR", source_amount: "84.90" })
      expect([amountToSend("84.90", "EUR", quoteOf(coin), payer), invoice.invoice_total_sum?.toFixed()]).toEqual([expected, expected])
    }
  })
})
