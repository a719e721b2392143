import { payInOf, totalPayIns, type PayInCallback } from "../deposits"

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
    expect(view).toMatchObject({ deposit_uid: "cus_1", amount: "1.25", psys_cid: "LTC", tx_urls: ["https://x/tx/1"], delivery_count: 2 })
  })
})
