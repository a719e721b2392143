import { Decimal } from "decimal.js"
import {
  GatewayBadRequestError,
  GatewayConnectionError,
  GatewayOutcomeUnknownError,
  GatewayParameterError,
  GatewayResponseError,
  GatewayServerError,
  GatewayTimeoutError,
  type Operation,
} from "../../../gateway"
import { assessOperation, decideReconciliation, isClearRefusal, normalizeRecipients, operationMatches, totalAmount, withdrawalFingerprint, type WithdrawalToMatch } from "../withdrawal"

const requestedAt = new Date("2026-11-21T10:00:00.400Z")
const second = Math.floor(requestedAt.getTime() / 1000)
const op = (fields: Partial<Operation>): Operation => ({ id: "op_1", type: "cash_out", status: "completed", tx_url: [], ...fields })
const cashOut: WithdrawalToMatch = { id: "cwdr_1", type: "cash_out", psys_cid: "ETH", recipients: [{ address: "addr", amount: "0.01" }], requested_at: requestedAt }
/** An operation as a white-label shop sees it: address, amount, coin and time. */
const detailed = (id: string, createdAt: number, fields: Partial<Operation> = {}) =>
  op({ id, psys_cid: "ETH", wallet_hash: "addr", amount: new Decimal("0.01"), created_at_utc: createdAt, ...fields })

describe("withdrawal identity", () => {
  it("gives equal amounts written differently the same fingerprint", () => {
    expect(withdrawalFingerprint("BTC", "cash_out", [{ address: "a", amount: "1.50" }])).toBe(withdrawalFingerprint("BTC", "cash_out", [{ address: " a ", amount: "1.5" }]))
  })

  it("gives another coin another fingerprint", () => {
    expect(withdrawalFingerprint("BTC", "cash_out", [{ address: "a", amount: "1" }])).not.toBe(withdrawalFingerprint("LTC", "cash_out", [{ address: "a", amount: "1" }]))
  })

  it("totals many recipients exactly", () => {
    expect(totalAmount(normalizeRecipients([{ address: "a", amount: "123456789.123456789012" }, { address: "b", amount: "0.00000001" }]))).toBe("123456789.123456799012")
  })
})

describe("matching an operation to a withdrawal", () => {
  it("matches a cash_out operation by address and amount created after the request", () => {
    expect(operationMatches(detailed("op_1", second + 2), cashOut)).toBe(true)
  })

  it("matches an operation created in the same second as the request", () => {
    expect(operationMatches(detailed("op_1", second), cashOut)).toBe(true)
  })

  it("does not match an operation with another amount", () => {
    expect(operationMatches(detailed("op_1", second + 2, { amount: new Decimal("0.02") }), cashOut)).toBe(false)
  })

  it("does not match an operation created one minute before the request", () => {
    expect(assessOperation(detailed("op_1", second - 60), cashOut)).toEqual({ fit: "other", reasons: ["created before the request"] })
  })

  it("does not match an operation created one second before the request", () => {
    expect(operationMatches(detailed("op_1", second - 1), cashOut)).toBe(false)
  })

  it("does not match an operation in another coin", () => {
    expect(operationMatches(detailed("op_1", second + 2, { psys_cid: "LTC" }), cashOut)).toBe(false)
  })

  it("matches a mass_cash_out only when sendmany holds exactly the recipients", () => {
    const mass: WithdrawalToMatch = { ...cashOut, type: "mass_cash_out", recipients: [{ address: "a", amount: "1" }, { address: "b", amount: "2" }] }
    const exact = op({ type: "mass_cash_out", created_at_utc: second, sendmany: { a: new Decimal("1"), b: new Decimal("2") } })
    const extra = op({ type: "mass_cash_out", created_at_utc: second, sendmany: { a: new Decimal("1"), b: new Decimal("2"), c: new Decimal("3") } })
    expect(operationMatches(exact, mass)).toBe(true)
    expect(operationMatches(extra, mass)).toBe(false)
  })

  it("offers an operation without details (a shop without white-label) as a candidate, never as a match", () => {
    const fit = assessOperation(op({}), cashOut)
    expect(fit.fit).toBe("candidate")
    expect(fit.reasons).toContain("destination or amount not shown by the gateway")
  })
})

describe("deciding what a search of the operations proves", () => {
  it("settles with the one exact match", () => {
    const decision = decideReconciliation(cashOut, [{ operation: detailed("op_1", second + 1), owner_id: null }])
    expect(decision).toMatchObject({ decision: "settle", operation: { id: "op_1" } })
  })

  it("leaves two exact matches unknown and shows both as candidates", () => {
    const decision = decideReconciliation(cashOut, [
      { operation: detailed("op_1", second + 1), owner_id: null },
      { operation: detailed("op_2", second + 3), owner_id: null },
    ])
    expect(decision.decision).toBe("unknown")
    expect(decision.candidates.map((c) => c.operation_id)).toEqual(["op_1", "op_2"])
    expect(decision.candidates.every((c) => c.exact)).toBe(true)
  })

  it("never settles with an operation another withdrawal owns", () => {
    const decision = decideReconciliation(cashOut, [{ operation: detailed("op_1", second + 1), owner_id: "cwdr_other" }])
    expect(decision).toEqual({ decision: "unknown", candidates: [] })
  })

  it("settles with the match after the request, not with the same payment made before it", () => {
    const decision = decideReconciliation(cashOut, [
      { operation: detailed("op_after", second + 2), owner_id: null },
      { operation: detailed("op_before", second - 30), owner_id: null },
    ])
    expect(decision).toMatchObject({ decision: "settle", operation: { id: "op_after" } })
  })

  it("stays unknown when nothing is found: absence is not proof", () => {
    expect(decideReconciliation(cashOut, [])).toEqual({ decision: "unknown", candidates: [] })
  })

  it("stays unknown with every operation of a shop without white-label as a candidate", () => {
    const decision = decideReconciliation(cashOut, [
      { operation: op({ id: "op_1" }), owner_id: null },
      { operation: op({ id: "op_2" }), owner_id: "cwdr_other" },
    ])
    expect(decision.decision).toBe("unknown")
    expect(decision.candidates).toEqual([expect.objectContaining({ operation_id: "op_1", exact: false })])
  })
})

describe("which gateway failures are a clear refusal", () => {
  it("takes a 4xx error answer as a refusal", () => {
    expect(isClearRefusal(new GatewayBadRequestError(400, { code: 116, message: "insufficient funds" }))).toBe(true)
  })

  it("takes a parameter the client refused before sending as a refusal", () => {
    expect(isClearRefusal(new GatewayParameterError("to", "required"))).toBe(true)
  })

  it.each([
    ["a 2xx whose body is not JSON", new GatewayResponseError("not JSON", { status: 200 })],
    ["a 5xx", new GatewayServerError(500, { code: 108, message: "internal" })],
    ["a reset", new GatewayConnectionError("socket hang up", "ECONNRESET")],
    ["a timeout", new GatewayTimeoutError("timeout", 3000)],
    ["an outcome-unknown error", new GatewayOutcomeUnknownError("operations.withdraw", {}, new GatewayTimeoutError("timeout", 3000), "Check")],
    ["an unexpected error", new Error("boom")],
  ])("takes %s as an unknown outcome", (_name, error) => {
    expect(isClearRefusal(error)).toBe(false)
  })
})
