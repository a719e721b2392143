import { BigNumber } from "@medusajs/framework/utils"
import { Decimal } from "decimal.js"
import { coinPlaces, coinToFiat, fiatToCoin, sessionAmountToDecimalString, storedAmountToDecimalString, sumAmounts, toWire } from "../money"

describe("sessionAmountToDecimalString", () => {
  it("keeps a number's decimal text", () => {
    expect(sessionAmountToDecimalString(10.5)).toBe("10.5")
  })

  it("keeps every digit of a raw BigNumber value", () => {
    expect(sessionAmountToDecimalString({ value: "123456789.123456789012", precision: 20 })).toBe("123456789.123456789012")
  })

  it("keeps every digit of a string", () => {
    expect(sessionAmountToDecimalString("0.00000001")).toBe("0.00000001")
  })

  it("never writes an exponent", () => {
    expect(sessionAmountToDecimalString(new BigNumber("1e-7"))).toBe("0.0000001")
  })

  it("refuses zero", () => {
    expect(() => sessionAmountToDecimalString(0)).toThrow(/amount must be a positive amount, got 0/)
  })

  it("refuses a negative amount", () => {
    expect(() => sessionAmountToDecimalString("-1")).toThrow(/must be a positive amount/)
  })
})

describe("fiatToCoin", () => {
  it("rounds a refund down so no more coin is sent than the refund is worth", () => {
    expect(fiatToCoin("10", "3", 8, "down").toFixed()).toBe("3.33333333")
  })

  it("rounds a price up so the figure shown is never below the invoice", () => {
    expect(fiatToCoin("10", "3", 8, "up").toFixed()).toBe("3.33333334")
  })
})

describe("coinToFiat", () => {
  it("values a balance in cents, rounded down", () => {
    expect(coinToFiat("0.123456789", "60000.5", "down").toFixed(2)).toBe("7407.46")
  })
})

describe("coinPlaces", () => {
  it("reads the gateway's precision text and falls back to 8 decimals", () => {
    expect([coinPlaces("6"), coinPlaces(null), coinPlaces("x")]).toEqual([6, 8, 8])
  })
})

describe("sumAmounts", () => {
  it("adds beyond decimal.js's default 20 significant digits without rounding", () => {
    expect(sumAmounts(["123456789.123456789012", "0.000000000001"]).toFixed()).toBe("123456789.123456789013")
  })
})

describe("storedAmountToDecimalString", () => {
  it("prefers the raw value, keeping every digit", () => {
    expect(storedAmountToDecimalString({ value: "123456789.123456789012", precision: 20 }, 123456789.12, "payment amount")).toBe("123456789.123456789012")
  })

  it("reads an absent amount as 0", () => {
    expect(storedAmountToDecimalString(undefined, null, "refund amount")).toBe("0")
  })

  it("refuses a negative amount, naming the field", () => {
    expect(() => storedAmountToDecimalString("-1", undefined, "capture amount")).toThrow("capture amount is not a non-negative amount: -1")
  })
})

describe("toWire", () => {
  it("turns every Decimal into its exact string and every Date into ISO text, never a float", () => {
    const wire = toWire({ amount: new Decimal("0.10000000000000000001"), at: new Date(0), list: [new Decimal("1e-9")] })
    expect(wire).toEqual({ amount: "0.10000000000000000001", at: "1970-01-01T00:00:00.000Z", list: ["0.000000001"] })
  })
})
