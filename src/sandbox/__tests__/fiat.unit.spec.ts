import { SandboxError } from "../core/errors"
import { Dec, defaultSeed, parseSeed } from "../index"
import { invoiceInput, makeCore, shop } from "./helpers"

// The rules under test: docs/gateway-readings.md#fiat-amounts.
const fiatInvoice = async (currency: string, sourceAmount: string) => {
  const core = makeCore()
  return core.createInvoice(shop(core, false), invoiceInput({ amount: null, source_currency: currency, source_amount: new Dec(sourceAmount) }))
}

const refusal = async (currency: string, sourceAmount: string): Promise<{ code: number; message: string }> => {
  const error = await fiatInvoice(currency, sourceAmount).catch((e: unknown) => e)
  if (!(error instanceof SandboxError)) {
    throw new Error("the invoice was created")
  }
  return { code: error.code, message: error.message }
}

describe("fiat amounts", () => {
  it("a EUR source_amount with 2 decimals converts", async () => {
    const { invoice } = await fiatInvoice("EUR", "10.55")
    expect([invoice.source_currency, invoice.source_amount]).toEqual(["EUR", "10.55"])
  })

  it("a EUR source_amount with 4 decimals is refused with 105 naming source_amount and the allowed decimals", async () => {
    const error = await refusal("EUR", "10.5549")
    expect([error.code, JSON.parse(error.message)]).toEqual([105, { source_amount: ['"source_amount" in EUR takes at most 2 decimal places (ISO 4217 minor units).'] }])
  })

  it("a JPY source_amount takes no decimal places", async () => {
    const error = await refusal("JPY", "1500.5")
    expect([error.code, error.message.includes("no decimal places")]).toEqual([105, true])
  })

  it("a whole JPY source_amount converts", async () => {
    const { invoice } = await fiatInvoice("JPY", "1500")
    expect(invoice.source_amount).toBe("1500")
  })

  it("a KWD source_amount may carry 3 decimals", async () => {
    const { invoice } = await fiatInvoice("KWD", "3.125")
    expect(invoice.source_amount).toBe("3.125")
  })

  it("a KWD source_amount with 4 decimals is refused", async () => {
    expect((await refusal("KWD", "3.1255")).message).toContain("at most 3 decimal places")
  })

  it("trailing zeros do not count as decimals", async () => {
    const { invoice } = await fiatInvoice("EUR", "10.5000")
    expect(invoice.source_amount).toBe("10.5")
  })

  it("an unknown currency is 105 naming source_currency", async () => {
    const error = await refusal("XXX", "10")
    expect([error.code, Object.keys(JSON.parse(error.message) as object)]).toEqual([105, ["source_currency"]])
  })

  it("an invoice given in coins states its fiat amount in the currency's minor units", async () => {
    const core = makeCore()
    const { invoice } = await core.createInvoice(shop(core, false), invoiceInput({ amount: new Dec("0.0123"), source_currency: "JPY" }))
    expect(new Dec(invoice.source_amount).decimalPlaces()).toBe(0)
  })

  it("the bundled seed gives every fiat currency 0, 2 or 3 minor units and a rate", () => {
    const entries = Object.entries(defaultSeed().fiat_currencies)
    expect([
      entries.length >= 126,
      entries.every(([, f]) => [0, 2, 3].includes(f.minor_units) && new Dec(f.rate).gt(0)),
      ["JPY", "KRW", "VND"].map((c) => defaultSeed().fiat_currencies[c]?.minor_units),
      ["KWD", "BHD", "OMR", "JOD", "TND", "IQD", "LYD"].map((c) => defaultSeed().fiat_currencies[c]?.minor_units),
    ]).toEqual([true, true, [0, 0, 0], [3, 3, 3, 3, 3, 3, 3]])
  })

  it("a seed with the older fiat_rates table is read with 2 minor units", () => {
    const { fiat_currencies: _unused, ...rest } = defaultSeed()
    const seed = parseSeed({ ...rest, fiat_rates: { USD: "1", EUR: "0.9" } })
    expect(seed.fiat_currencies.EUR).toEqual({ rate: "0.9", minor_units: 2 })
  })
})
