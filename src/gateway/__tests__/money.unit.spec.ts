import { Decimal, decimalParam, GatewayParameterError, isDecimalString, isReceivedDecimal, toDecimal } from ".."

describe("money helpers", () => {
  describe("isDecimalString", () => {
    it.each(["0", "12", "12.50", "0.00000001", "123456789.123456789012"])("accepts the plain decimal %s", (value) => {
      expect(isDecimalString(value)).toBe(true)
    })

    it.each(["", " 1", "1 ", "1e5", "1E-8", "NaN", "Infinity", "-1", "+1", ".5", "5.", "1,5", "0x10", "1.2.3"])(
      "refuses %j",
      (value) => {
        expect(isDecimalString(value)).toBe(false)
      }
    )
  })

  describe("isReceivedDecimal", () => {
    it.each(["1e-8", "-0.5", "12", "1.5E+3"])("accepts the JSON number lexeme %s", (value) => {
      expect(isReceivedDecimal(value)).toBe(true)
    })

    it.each(["", "NaN", "abc", " 1", "1 "])("refuses %j", (value) => {
      expect(isReceivedDecimal(value)).toBe(false)
    })
  })

  describe("toDecimal", () => {
    it("keeps every digit of 123456789.123456789012", () => {
      expect(toDecimal("123456789.123456789012").toFixed()).toBe("123456789.123456789012")
    })

    it("keeps 0.00000001 exactly", () => {
      expect(toDecimal("0.00000001").equals(new Decimal("1e-8"))).toBe(true)
    })

    it("refuses a JS number", () => {
      const value: unknown = 0.1
      expect(() => toDecimal(value as string, "amount")).toThrow("Invalid parameter amount: must be a decimal string, got number")
    })

    it("returns a Decimal given a Decimal", () => {
      const value = new Decimal("2.5")
      expect(toDecimal(value)).toBe(value)
    })

    it("refuses a non-decimal string, naming the field", () => {
      expect(() => toDecimal("NaN", "amount")).toThrow('Invalid parameter amount: must be a decimal string, got "NaN"')
    })
  })

  describe("decimalParam", () => {
    it("sends a Decimal with every digit and no exponent", () => {
      expect(decimalParam(new Decimal("0.00000001"))).toBe("0.00000001")
      expect(decimalParam(new Decimal("123456789.123456789012"))).toBe("123456789.123456789012")
      expect(decimalParam(new Decimal("1e21"))).toBe("1000000000000000000000")
    })

    it("sends a plain decimal string as given", () => {
      expect(decimalParam("12.50")).toBe("12.50")
    })

    it("refuses a JS number", () => {
      // A caller without types could still pass a number; it must not go through a float.
      const value: unknown = 0.1
      expect(() => decimalParam(value as string, "amount")).toThrow(GatewayParameterError)
    })

    it.each(["1e-8", "NaN", " 1", "-1", "", "1,5"])("refuses the string %j, naming the field", (value) => {
      expect(() => decimalParam(value, "source_amount")).toThrow(/Invalid parameter source_amount/)
    })

    it("refuses a negative or non-finite Decimal", () => {
      expect(() => decimalParam(new Decimal("-1"))).toThrow(GatewayParameterError)
      expect(() => decimalParam(new Decimal(NaN))).toThrow(GatewayParameterError)
      expect(() => decimalParam(new Decimal(Infinity))).toThrow(GatewayParameterError)
    })
  })
})
