import { formatDecimal, formatFiat, sumDecimals, totalDebited } from "../money"

describe("admin money helpers", () => {
  it("adds amounts, fee and commission exactly for the total debited", () => {
    expect(totalDebited(["0.1", "0.2"], "0.00001", "0.000005")).toBe("0.300015")
  })

  it("leaves an unknown fee or commission out of the total", () => {
    expect(totalDebited(["1.5"], null, undefined)).toBe("1.5")
  })

  it("ignores strings that are not decimals instead of producing NaN", () => {
    expect(sumDecimals(["1", "abc", "", null, "2.5"])).toBe("3.5")
  })

  it("groups thousands and keeps every fraction digit", () => {
    expect(formatDecimal("123456789.123456789012")).toBe("123,456,789.123456789012")
  })

  it("shows fiat values with two decimals and the currency code", () => {
    expect(formatFiat("1234.5", "eur")).toBe("1,234.50 EUR")
  })
})
