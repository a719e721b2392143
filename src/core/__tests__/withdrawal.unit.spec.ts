import { Decimal } from "decimal.js"
import type { Operation } from "../../gateway"
import { normalizeRecipients, operationMatches, totalAmount, withdrawalFingerprint } from "../withdrawal"

const requestedAt = new Date("2026-11-21T10:00:00Z")
const op = (fields: Partial<Operation>): Operation => ({ id: "op_1", type: "cash_out", status: "completed", tx_url: [], ...fields })

describe("withdrawal identity and matching", () => {
  it("gives equal amounts written differently the same fingerprint", () => {
    expect(withdrawalFingerprint("BTC", "cash_out", [{ address: "a", amount: "1.50" }])).toBe(withdrawalFingerprint("BTC", "cash_out", [{ address: " a ", amount: "1.5" }]))
  })

  it("gives another coin another fingerprint", () => {
    expect(withdrawalFingerprint("BTC", "cash_out", [{ address: "a", amount: "1" }])).not.toBe(withdrawalFingerprint("LTC", "cash_out", [{ address: "a", amount: "1" }]))
  })

  it("totals many recipients exactly", () => {
    expect(totalAmount(normalizeRecipients([{ address: "a", amount: "123456789.123456789012" }, { address: "b", amount: "0.00000001" }]))).toBe("123456789.123456799012")
  })

  it("matches a cash_out operation by address and amount", () => {
    const operation = op({ wallet_hash: "addr", amount: new Decimal("0.01"), created_at_utc: requestedAt.getTime() / 1000 + 2 })
    expect(operationMatches(operation, { type: "cash_out", psys_cid: "ETH", recipients: [{ address: "addr", amount: "0.01" }], requested_at: requestedAt })).toBe(true)
  })

  it("does not match an operation with another amount", () => {
    const operation = op({ wallet_hash: "addr", amount: new Decimal("0.02") })
    expect(operationMatches(operation, { type: "cash_out", psys_cid: "ETH", recipients: [{ address: "addr", amount: "0.01" }], requested_at: requestedAt })).toBe(false)
  })

  it("does not match an operation created well before the request", () => {
    const operation = op({ wallet_hash: "addr", amount: new Decimal("0.01"), created_at_utc: requestedAt.getTime() / 1000 - 3600 })
    expect(operationMatches(operation, { type: "cash_out", psys_cid: "ETH", recipients: [{ address: "addr", amount: "0.01" }], requested_at: requestedAt })).toBe(false)
  })

  it("matches a mass_cash_out only when sendmany holds exactly the recipients", () => {
    const recipients = [{ address: "a", amount: "1" }, { address: "b", amount: "2" }]
    const exact = op({ type: "mass_cash_out", sendmany: { a: new Decimal("1"), b: new Decimal("2") } })
    const extra = op({ type: "mass_cash_out", sendmany: { a: new Decimal("1"), b: new Decimal("2"), c: new Decimal("3") } })
    expect(operationMatches(exact, { type: "mass_cash_out", psys_cid: "ETH", recipients, requested_at: requestedAt })).toBe(true)
    expect(operationMatches(extra, { type: "mass_cash_out", psys_cid: "ETH", recipients, requested_at: requestedAt })).toBe(false)
  })

  it("cannot match an operation without details (a shop without white-label)", () => {
    expect(operationMatches(op({}), { type: "cash_out", psys_cid: "ETH", recipients: [{ address: "addr", amount: "0.01" }], requested_at: requestedAt })).toBe(false)
  })
})
