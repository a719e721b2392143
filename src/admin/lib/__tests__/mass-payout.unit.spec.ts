import { parseMassPayoutList } from "../mass-payout"

describe("parseMassPayoutList", () => {
  it("reads one address and amount per line, separated by comma, semicolon, tab or spaces", () => {
    const parsed = parseMassPayoutList("addr1,0.1\naddr2;0.2\naddr3\t0.3\naddr4   0.4")
    expect(parsed.errors).toEqual([])
    expect(parsed.recipients).toEqual([
      { line: 1, address: "addr1", amount: "0.1" },
      { line: 2, address: "addr2", amount: "0.2" },
      { line: 3, address: "addr3", amount: "0.3" },
      { line: 4, address: "addr4", amount: "0.4" },
    ])
  })

  it("sums the amounts exactly, without float rounding", () => {
    expect(parseMassPayoutList("a 0.1\nb 0.2").total).toBe("0.3")
    expect(parseMassPayoutList("a 123456789.123456789012\nb 0.00000001").total).toBe("123456789.123456799012")
  })

  it("skips blank lines and # comments but keeps the original line numbers", () => {
    const parsed = parseMassPayoutList("# payroll\n\naddr1 1\n")
    expect(parsed.recipients).toEqual([{ line: 3, address: "addr1", amount: "1" }])
  })

  it("reports a line with a missing amount by its line number", () => {
    expect(parseMassPayoutList("addr1 1\naddr2").errors).toEqual([{ line: 2, message: 'expected "address amount", found 1 field' }])
  })

  it("refuses a comma decimal separator instead of guessing", () => {
    const parsed = parseMassPayoutList("addr1 0,5 extra")
    expect(parsed.recipients).toEqual([])
    expect(parsed.errors[0].line).toBe(1)
  })

  it("refuses negative, zero and exponent amounts", () => {
    const parsed = parseMassPayoutList("a -1\nb 0\nc 1e-8")
    expect(parsed.errors.map((e) => e.line)).toEqual([1, 2, 3])
    expect(parsed.recipients).toEqual([])
  })

  it("refuses more decimal places than the coin has", () => {
    expect(parseMassPayoutList("a 0.123456789", { precision: 8 }).errors).toEqual([{ line: 1, message: "at most 8 decimal places for this coin" }])
  })

  it("refuses an address listed twice, naming the first line", () => {
    expect(parseMassPayoutList("a 1\nb 2\na 3").errors).toEqual([{ line: 3, message: "the address is already on line 1" }])
  })

  it("refuses more recipients than one payout takes", () => {
    const text = Array.from({ length: 4 }, (_, i) => `addr${i} 1`).join("\n")
    expect(parseMassPayoutList(text, { maxRecipients: 3 }).errors).toEqual([{ line: 4, message: "at most 3 recipients in one payout" }])
  })
})
