import { amountProblem } from "../../money"
import { checkAmounts, failedAtGatewayMessage, placesOfCoin, withFailureRead, type GatewayFailureRead } from "../withdrawal"
import type { RateCacheStore } from "../../payment/currency-cache"

describe("the one amount rule (docs/money-out.md#amounts)", () => {
  it("accepts a plain positive decimal within the coin's places", () => {
    expect(amountProblem("0.00000001", 8, "BTC")).toBeNull()
  })

  it("refuses 40 decimal places for a coin of 18, naming the places and the coin", () => {
    expect(amountProblem(`0.${"1".repeat(40)}`, 18, "ETH")).toBe("at most 18 decimal places for ETH")
  })

  it("does not count trailing zeros as places", () => {
    expect(amountProblem("0.1000000000", 8, "BTC")).toBeNull()
  })

  it.each(["-1", "+1", "1e-8", " 1", "1 ", ".5", "5.", "0x10", "NaN", "Infinity", ""])("refuses %j: not a plain decimal", (value) => {
    expect(amountProblem(value, 8, "BTC")).toContain("must be a plain decimal")
  })

  it("refuses zero", () => {
    expect(amountProblem("0.000", 8, "BTC")).toBe("must be greater than 0")
  })
})

describe("checking a withdrawal's amounts", () => {
  it("names the line of a mass payout that has too many places", () => {
    const amounts = ["0.1", "0.2", "0.000000011"].map((value, index) => ({ field: `recipients[${index}].amount`, value }))
    expect(() => checkAmounts(amounts, 8, "BTC")).toThrow("recipients[2].amount: at most 8 decimal places for BTC (field: recipients[2].amount)")
  })

  it("names every wrong line, not only the first", () => {
    const amounts = ["1e-3", "0.1", "0.000000011"].map((value, index) => ({ field: `recipients[${index}].amount`, value }))
    expect(() => checkAmounts(amounts, 8, "BTC")).toThrow(/recipients\[0\]\.amount: must be a plain decimal.*; recipients\[2\]\.amount: at most 8/)
  })

  it("passes amounts within the places", () => {
    expect(() => checkAmounts([{ field: "amount", value: "0.5" }], 8, "BTC")).not.toThrow()
  })

  it("reads the coin's places from the gateway's currency list (spec §2.4), 8 when it does not show the coin", async () => {
    const store: RateCacheStore = {
      listCryptoRateCaches: jest.fn(async () => []),
      createCryptoRateCaches: jest.fn(async () => ({})),
      updateCryptoRateCaches: jest.fn(async () => ({})),
    } as unknown as RateCacheStore // only the three methods listCurrencies calls
    const client = { currencies: { list: jest.fn(async () => [{ cid: "USDT_TRX", currency: "USDT", precision: "6" }]) } }
    expect(await placesOfCoin(client, store, "USDT_TRX")).toBe(6)
    expect(await placesOfCoin(client, store, "DOGE")).toBe(8)
  })
})

describe("the merchant's words for a withdrawal that failed at the gateway", () => {
  const at = new Date("2026-11-25T07:00:00.000Z")
  const read: GatewayFailureRead = { at: at.toISOString(), ok: true, status: "error", status_code: null, amount: "0.01", fee: null, tx_urls: [], finished_at: null }

  it("names the operation, its status and the last read", () => {
    const evidence = withFailureRead(null, { operation_id: "op_7", status: "error", at }, read)
    expect(failedAtGatewayMessage(evidence)).toMatch(/^Failed at the gateway: operation op_7, status error \(answered at 2026-11-25T07:00:00.000Z; read back at 2026-11-25T07:00:00.000Z: status error\)/)
  })

  it("says when reading the operation back failed", () => {
    const evidence = withFailureRead(null, { operation_id: "op_7", status: "error", at }, { at: at.toISOString(), ok: false, error: "no answer within 3000 ms" })
    expect(failedAtGatewayMessage(evidence)).toContain("reading it back at 2026-11-25T07:00:00.000Z failed: no answer within 3000 ms")
  })

  it("keeps every read of the same operation, newest last", () => {
    const first = withFailureRead(null, { operation_id: "op_7", status: "error", at }, read)
    const second = withFailureRead(first, { operation_id: "op_7", status: "error", at: new Date() }, { ...read, at: "2026-11-25T07:05:00.000Z" })
    expect(second.answered_at).toBe(at.toISOString())
    expect(second.reads.map((r) => r.at)).toEqual([at.toISOString(), "2026-11-25T07:05:00.000Z"])
  })
})
