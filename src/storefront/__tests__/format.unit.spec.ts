import { buildPaymentUri, coinLabel, describeCoin, formatCryptoAmount, formatFiatAmount, isDecimalString, paymentUriScheme, toPlainDecimal } from "../index"

describe("formatCryptoAmount", () => {
  it("keeps every digit of a 30-digit amount (no float on the way)", () => {
    expect(formatCryptoAmount("123456789012345678901234567890.123456789012345678", { locale: "en-US" })).toBe(
      "123,456,789,012,345,678,901,234,567,890.123456789012345678"
    )
  })

  it("keeps trailing zeros of the fraction as the invoice wrote them", () => {
    expect(formatCryptoAmount("0.00123400", { locale: "en-US" })).toBe("0.00123400")
  })

  it("groups and separates by locale: German uses dots and a comma", () => {
    expect(formatCryptoAmount("1234567.5", { locale: "de-DE" })).toBe("1.234.567,5")
  })

  it("appends the coin code", () => {
    expect(formatCryptoAmount("0.5", { locale: "en-US", code: "BTC" })).toBe("0.5 BTC")
  })

  it("pads the fraction to a minimum but never drops digits", () => {
    expect(formatCryptoAmount("2", { locale: "en-US", minimumFractionDigits: 2 })).toBe("2.00")
    expect(formatCryptoAmount("2.123", { locale: "en-US", minimumFractionDigits: 2 })).toBe("2.123")
  })

  it("prints an exponent form in full", () => {
    expect(formatCryptoAmount("1e-8", { locale: "en-US" })).toBe("0.00000001")
  })

  it("keeps the sign of a negative amount below one", () => {
    expect(formatCryptoAmount("-0.5", { locale: "en-US" })).toBe("-0.5")
  })

  it("falls back to English for an unknown locale instead of throwing", () => {
    expect(formatCryptoAmount("1000.1", { locale: "xx-invalid-locale-tag-!!" })).toBe("1,000.1")
  })

  it("refuses a number-like string that is not a decimal, naming the field", () => {
    expect(() => formatCryptoAmount("1,5")).toThrow('amount must be a decimal string such as "0.0015", got "1,5"')
  })
})

describe("formatFiatAmount", () => {
  it("pads to the currency's digits: 49.9 EUR in German is 49,90 €", () => {
    expect(formatFiatAmount("49.9", "EUR", "de-DE")).toBe("49,90\u00a0€")
  })

  it("puts the symbol where the locale puts it: $1,234.50", () => {
    expect(formatFiatAmount("1234.5", "usd", "en-US")).toBe("$1,234.50")
  })

  it("keeps more digits than the currency usually has instead of rounding them away", () => {
    expect(formatFiatAmount("10.005", "EUR", "en-US")).toBe("€10.005")
  })

  it("handles a currency without minor units", () => {
    expect(formatFiatAmount("1500", "JPY", "en-US")).toBe("¥1,500")
  })

  it("keeps an amount too large for a float exact", () => {
    expect(formatFiatAmount("90071992547409931.01", "USD", "en-US")).toBe("$90,071,992,547,409,931.01")
  })
})

describe("decimal strings", () => {
  it("accepts plain and exponent decimals and nothing else", () => {
    expect(["1", "0.5", "-2.25", "1e-8"].every(isDecimalString)).toBe(true)
    expect(["", "1,5", "0x10", "NaN", ".5", "1."].some(isDecimalString)).toBe(false)
    expect(isDecimalString(0.5)).toBe(false)
  })

  it("turns an exponent form into a plain decimal exactly", () => {
    expect(toPlainDecimal("1.5e+30")).toBe("1500000000000000000000000000000")
  })
})

describe("coin naming", () => {
  it("names USDT on Ethereum and USDT on TRON differently", () => {
    expect(coinLabel("USDT_ETH")).toBe("USDT · Ethereum (ERC-20)")
    expect(coinLabel("USDT_TRX")).toBe("USDT · TRON (TRC-20)")
  })

  it("names the native coins with their chain", () => {
    expect(coinLabel("BTC")).toBe("BTC · Bitcoin")
    expect(coinLabel("LTC")).toBe("LTC · Litecoin")
    expect(coinLabel("BCH")).toBe("BCH · Bitcoin Cash")
    expect(coinLabel("DOGE")).toBe("DOGE · Dogecoin")
    expect(coinLabel("ETH")).toBe("ETH · Ethereum")
    expect(coinLabel("TRX")).toBe("TRX · TRON")
    expect(coinLabel("BNB")).toBe("BNB · BNB Smart Chain")
  })

  it("describes a token's code, name and network", () => {
    expect(describeCoin("USDT_TRX")).toEqual({ id: "USDT_TRX", code: "USDT", name: "Tether", network: "TRON (TRC-20)", label: "USDT · TRON (TRC-20)" })
  })

  it("falls back to the raw id for a coin it does not know", () => {
    expect(describeCoin("FOO_BAR", "FOO")).toEqual({ id: "FOO_BAR", code: "FOO", name: null, network: null, label: "FOO_BAR" })
  })
})

describe("payment URIs", () => {
  it("builds a BIP21 URI for Bitcoin with the amount in plain decimal", () => {
    expect(buildPaymentUri({ psysCid: "BTC", address: "bc1qexample", amount: "0.00123400" })).toBe("bitcoin:bc1qexample?amount=0.001234")
  })

  it("uses litecoin:, bitcoincash: and dogecoin: for LTC, BCH and DOGE", () => {
    expect(buildPaymentUri({ psysCid: "LTC", address: "ltc1q", amount: "1" })).toBe("litecoin:ltc1q?amount=1")
    expect(buildPaymentUri({ psysCid: "BCH", address: "qpm2q", amount: "0.5" })).toBe("bitcoincash:qpm2q?amount=0.5")
    expect(buildPaymentUri({ psysCid: "DOGE", address: "D8vF", amount: "100.00" })).toBe("dogecoin:D8vF?amount=100")
  })

  it("does not repeat the bitcoincash: prefix of a CashAddr address", () => {
    expect(buildPaymentUri({ psysCid: "BCH", address: "bitcoincash:qpm2q", amount: "0.5" })).toBe("bitcoincash:qpm2q?amount=0.5")
  })

  it("leaves the amount out when there is none", () => {
    expect(buildPaymentUri({ psysCid: "BTC", address: "bc1q" })).toBe("bitcoin:bc1q")
  })

  it("gives no URI for a coin without a standard scheme", () => {
    expect(paymentUriScheme("USDT_TRX")).toBeNull()
    expect(buildPaymentUri({ psysCid: "USDT_TRX", address: "TXyz", amount: "10" })).toBeNull()
    expect(buildPaymentUri({ psysCid: "ETH", address: "0xabc", amount: "1" })).toBeNull()
  })
})
