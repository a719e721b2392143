import { replayOfRecordedRefund, type CreateCryptoRefundInput, type RecordedCryptoRefund } from "../steps/prepare-crypto-refund"

const overpaymentRefund: RecordedCryptoRefund = {
  id: "cwdr_1",
  provider_id: "pp_crypto_crypto",
  psys_cid: "ETH",
  purpose: "overpayment",
  order_id: "order_1",
  payment_id: null,
  invoice_id: "cinv_1",
  total_amount: "0.000412345678901234",
  source_currency: null,
  source_amount: null,
  source_rate: null,
}

const request = (fields: Partial<CreateCryptoRefundInput> = {}): CreateCryptoRefundInput => ({
  idempotency_key: "key-1",
  order_id: "order_1",
  kind: "overpayment",
  address: "0xabc",
  fee_plan: "normal",
  ...fields,
})

describe("replaying a crypto refund recorded under its idempotency key", () => {
  it("replays an overpayment refund with the recorded coin amount, whatever is still due now", () => {
    expect(replayOfRecordedRefund(overpaymentRefund, request())).toMatchObject({
      idempotency_key: "key-1",
      purpose: "overpayment",
      invoice_id: "cinv_1",
      psys_cid: "ETH",
      recipients: [{ address: "0xabc", amount: "0.000412345678901234" }],
    })
  })

  it("replays a fiat refund when the same fiat amount is asked again, written differently", () => {
    const recorded: RecordedCryptoRefund = { ...overpaymentRefund, purpose: "refund", invoice_id: null, payment_id: "pay_1", source_currency: "EUR", source_amount: "10.5", source_rate: "2500", total_amount: "0.0042" }
    expect(replayOfRecordedRefund(recorded, request({ kind: "refund", amount: "10.50", rate: "2400" }))).toMatchObject({
      purpose: "refund",
      payment_id: "pay_1",
      source_amount: "10.5",
      source_rate: "2500",
      recipients: [{ address: "0xabc", amount: "0.0042" }],
    })
  })

  it("refuses the key reused for another kind of refund, naming the key", () => {
    expect(() => replayOfRecordedRefund(overpaymentRefund, request({ kind: "underpayment" }))).toThrow("(field: idempotency_key)")
  })

  it("refuses the key reused for another order, naming the key", () => {
    expect(() => replayOfRecordedRefund(overpaymentRefund, request({ order_id: "order_2" }))).toThrow("(field: idempotency_key)")
  })

  it("refuses the key reused for another amount, naming the key", () => {
    expect(() => replayOfRecordedRefund(overpaymentRefund, request({ amount: "0.0001" }))).toThrow("(field: idempotency_key)")
  })

  it("refuses the key of a plain withdrawal reused for a refund, naming the key", () => {
    expect(() => replayOfRecordedRefund({ ...overpaymentRefund, purpose: "withdrawal", order_id: null }, request())).toThrow("(field: idempotency_key)")
  })
})
