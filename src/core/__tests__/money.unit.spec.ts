import { BigNumber } from "@medusajs/framework/utils"
import { sessionAmountToDecimalString } from "../money"

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
