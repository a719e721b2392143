import { Decimal } from "decimal.js"
import type { Operation } from "../../../gateway"
import { payInFieldsOfOperation, payInOf, payInsToRecord, totalPayIns, type PayInCallback } from "../deposits"

const payIn = (fields: Partial<PayInCallback>): PayInCallback => ({
  id: "ccb_1",
  received_at: "2026-11-24T00:00:00Z",
  delivery_count: 1,
  status: "completed",
  txn_id: "PI-1",
  deposit_uid: "cus_1",
  psys_cid: "LTC",
  currency: "LTC",
  amount: "1.25",
  confirmations: "3",
  wallet_hash: "ltc1q",
  tx_urls: [],
  recovered: false,
  ...fields,
})

describe("a customer's pay_in totals", () => {
  it("sums confirmed amounts per coin exactly, as decimal strings", () => {
    const totals = totalPayIns([payIn({ txn_id: "PI-1", amount: "0.1" }), payIn({ txn_id: "PI-2", amount: "0.2" }), payIn({ txn_id: "PI-3", psys_cid: "BTC", currency: "BTC", amount: "0.00000001" })])
    expect(totals).toEqual([
      { psys_cid: "BTC", currency: "BTC", confirmed: "0.00000001", pending: "0", count: 1 },
      { psys_cid: "LTC", currency: "LTC", confirmed: "0.3", pending: "0", count: 2 },
    ])
  })

  it("counts a pay_in reported pending then completed once, by its latest callback", () => {
    const totals = totalPayIns([payIn({ id: "ccb_2", status: "completed" }), payIn({ id: "ccb_1", status: "pending" })])
    expect(totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "1.25", pending: "0", count: 1 }])
  })

  it("counts a pay_in once, as completed, when an earlier pending callback is stored after it (a redelivery hours later)", () => {
    const totals = totalPayIns([payIn({ id: "ccb_3", status: "pending" }), payIn({ id: "ccb_2", status: "completed" }), payIn({ id: "ccb_1", status: "pending" })])
    expect(totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "1.25", pending: "0", count: 1 }])
  })

  it("counts a pay_in recovered from the operations list and its callback delivered later once", () => {
    const totals = totalPayIns([payIn({ id: "ccb_2", status: "completed" }), payIn({ id: "ccb_1", status: "completed", recovered: true })])
    expect(totals).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "1.25", pending: "0", count: 1 }])
  })

  it("keeps a pay_in not completed yet apart as pending", () => {
    expect(totalPayIns([payIn({ status: "pending" })])).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0", pending: "1.25", count: 1 }])
  })
})

describe("a stored pay_in callback as the admin shows it", () => {
  it("picks the verified fields by name and keeps tx links", () => {
    const view = payInOf({
      id: "ccb_1",
      created_at: "2026-11-24T00:00:00Z",
      delivery_count: 2,
      status: "completed",
      txn_id: "PI-1",
      deposit_uid: "cus_1",
      fields: { psys_cid: "LTC", currency: "LTC", amount: "1.25", confirmations: "3", wallet_hash: "ltc1q", tx_urls: ["https://x/tx/1"] },
    })
    expect(view).toMatchObject({ deposit_uid: "cus_1", amount: "1.25", psys_cid: "LTC", tx_urls: ["https://x/tx/1"], delivery_count: 2, recovered: false })
  })
})

const operation = (extra: Partial<Operation> = {}): Operation => ({
  id: "PI-1",
  type: "pay_in",
  status: "completed",
  tx_url: ["https://x/tx/1"],
  psys_cid: "LTC",
  currency: "LTC",
  wallet_hash: "ltc1qdeposit",
  amount: new Decimal("1.25"),
  confirmations: 6,
  created_at_utc: 1_790_000_000,
  ...extra,
})

describe("a pay_in read back from the operations list (its callbacks lost)", () => {
  it("takes the callback's shape (spec §6.2), every amount a decimal string in its coin, with the uid the deposit list gave", () => {
    expect(payInFieldsOfOperation(operation({ amount: new Decimal("0.10000000") }), "cus_1")).toEqual({
      ipn_type: "pay_in",
      txn_id: "PI-1",
      status: "completed",
      amount: "0.1",
      psys_cid: "LTC",
      currency: "LTC",
      confirmations: "6",
      wallet_hash: "ltc1qdeposit",
      deposit_uid: "cus_1",
      tx_urls: ["https://x/tx/1"],
      created_at_utc: "1790000000",
    })
  })

  it("is recorded when no callback of it is stored", () => {
    expect(payInsToRecord([operation()], []).map((op) => op.id)).toEqual(["PI-1"])
  })

  it("is not recorded again when a callback (or an earlier recovery) with that state is stored", () => {
    expect(payInsToRecord([operation()], [{ txn_id: "PI-1", status: "completed" }])).toEqual([])
    expect(payInsToRecord([operation({ status: "pending" })], [{ txn_id: "PI-1", status: "completed" }])).toEqual([])
  })

  it("is recorded when it completed but only its pending callback arrived", () => {
    expect(payInsToRecord([operation()], [{ txn_id: "PI-1", status: "pending" }]).map((op) => op.status)).toEqual(["completed"])
  })

  it("counts `pending internal` as seen, not completed (spec §3)", () => {
    expect(payInsToRecord([operation({ status: "pending internal" })], [{ txn_id: "PI-1", status: "pending" }])).toEqual([])
    expect(totalPayIns([payIn({ status: "pending internal" })])).toEqual([{ psys_cid: "LTC", currency: "LTC", confirmed: "0", pending: "1.25", count: 1 }])
  })

  it("skips an operation that is not a pay_in or has no amount or coin (a plain shop's list, spec §2.2)", () => {
    expect(payInsToRecord([operation({ type: "invoice" }), operation({ id: "PI-2", amount: null, actual_sum: null }), operation({ id: "PI-3", psys_cid: null })], [])).toEqual([])
  })
})
