import { checkCallbackAgainstInvoice, describeDiscrepancies, type InvoiceRecordForCheck } from "../callback-check"

const invoice: InvoiceRecordForCheck = {
  order_number: "cart_01",
  txn_id: "INV-1",
  psys_cid: "BTC_TEST",
  currency: "BTC",
  expected_amount: "0.00012345",
  source_currency: "EUR",
  source_amount: "10.5",
}

const callback = {
  txn_id: "INV-1",
  ipn_type: "invoice",
  order_number: "cart_01",
  status: "completed",
  amount: "0.00012345",
  psys_cid: "BTC_TEST",
  currency: "BTC",
  invoice_total_sum: "0.00012345",
  source_currency: "EUR",
  source_amount: "10.5",
}

describe("checkCallbackAgainstInvoice", () => {
  it("finds nothing when the callback matches the invoice we created", () => {
    expect(checkCallbackAgainstInvoice(callback, invoice)).toEqual([])
  })

  it("compares amounts as decimals, not as text", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, invoice_total_sum: "0.000123450", source_amount: "10.50" }, invoice)).toEqual([])
  })

  it("reports a coin other than the invoice's", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, psys_cid: "LTC", currency: "LTC" }, invoice)).toEqual([
      { field: "psys_cid", callback: "LTC", invoice: "BTC_TEST" },
      { field: "currency", callback: "LTC", invoice: "BTC" },
    ])
  })

  it("reports an amount asked other than the invoice's, down to the last decimal", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, invoice_total_sum: "0.00012346" }, invoice)).toEqual([
      { field: "invoice_total_sum", callback: "0.00012346", invoice: "0.00012345" },
    ])
  })

  it("reports a fiat amount or currency other than the cart's", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, source_amount: "1050", source_currency: "USD" }, invoice)).toEqual([
      { field: "source_currency", callback: "USD", invoice: "EUR" },
      { field: "source_amount", callback: "1050", invoice: "10.5" },
    ])
  })

  it("does not report an under- or overpayment: the status map handles those", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, amount: "0.5" }, invoice)).toEqual([])
  })

  it("reports a received amount that is not a decimal", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, amount: "1e3" }, invoice)).toEqual([
      { field: "amount", callback: "1e3", invoice: "a decimal amount" },
    ])
  })

  it("accepts another coin and amount from an invoice of the switch chain, but still checks its fiat amount", () => {
    const switched = { ...callback, txn_id: "INV-2", switch_id: "INV-1", psys_cid: "LTC", currency: "LTC", invoice_total_sum: "0.2" }
    expect(checkCallbackAgainstInvoice(switched, invoice)).toEqual([])
    expect(checkCallbackAgainstInvoice({ ...switched, source_amount: "11" }, invoice)).toEqual([
      { field: "source_amount", callback: "11", invoice: "10.5" },
    ])
  })

  it("after a currency switch, checks the paid invoice's callback against the paid coin and not the first invoice's", () => {
    const switched = { ...invoice, active_txn_id: "INV-2", psys_cid: "LTC", currency: "LTC", expected_amount: "0.2" }
    const paid = { ...callback, txn_id: "INV-2", psys_cid: "LTC", currency: "LTC", invoice_total_sum: "0.2", amount: "0.2" }
    expect(checkCallbackAgainstInvoice(paid, switched)).toEqual([])
    expect(checkCallbackAgainstInvoice(callback, switched)).toEqual([])
    expect(checkCallbackAgainstInvoice({ ...paid, currency: "BTC" }, switched)).toEqual([{ field: "currency", callback: "BTC", invoice: "LTC" }])
  })

  it("skips a field the invoice record does not know (a plain shop's invoice has no coin)", () => {
    expect(checkCallbackAgainstInvoice(callback, { ...invoice, psys_cid: null, currency: null })).toEqual([])
  })

  it("reports an order number other than the invoice's", () => {
    expect(checkCallbackAgainstInvoice({ ...callback, order_number: "cart_02" }, invoice)).toEqual([
      { field: "order_number", callback: "cart_02", invoice: "cart_01" },
    ])
  })
})

describe("describeDiscrepancies", () => {
  it("names each field with both values", () => {
    expect(describeDiscrepancies([{ field: "psys_cid", callback: "LTC", invoice: "BTC" }])).toBe('psys_cid "LTC" (invoice: "BTC")')
  })
})
