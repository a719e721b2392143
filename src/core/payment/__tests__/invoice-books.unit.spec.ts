import { Decimal } from "decimal.js"
import type { Operation } from "../../../gateway"
import { booksUpdate, invoiceBooksAtCreation, invoiceBooksOf } from "../invoice-books"

const operation = (fields: Partial<Operation>): Operation => ({ id: "tx_1", type: "invoice", status: "completed", tx_url: [], ...fields }) as Operation

describe("invoice books", () => {
  it("takes the commission and fee actually taken, the transactions and the finish time from the operation", () => {
    const books = invoiceBooksOf(
      operation({
        source_rate: new Decimal("61882.34"),
        commission: new Decimal("0.00001"),
        actual_commission: new Decimal("0.0000137"),
        actual_fee: new Decimal("0.00000521"),
        tx_id: ["ab12", "cd34"],
        finished_at_utc: 1764201600,
      }),
      null
    )
    expect(books).toEqual({
      source_rate: "61882.34",
      commission: "0.0000137",
      network_fee: "0.00000521",
      tx_ids: ["ab12", "cd34"],
      paid_at: new Date("2025-11-27T00:00:00.000Z"),
    })
  })

  it("falls back to the quoted commission and to tx[].txid; says null where the gateway says nothing", () => {
    const books = invoiceBooksOf(operation({ commission: new Decimal("0.5"), tx: [{ txid: "ff00" }, { url: "https://x" }] }), null)
    expect(books).toEqual({ source_rate: null, commission: "0.5", network_fee: null, tx_ids: ["ff00"], paid_at: null })
  })

  it("keeps the invoice's own rate: the operation's rate at transfer only fills a missing one", () => {
    expect(invoiceBooksOf(operation({ source_rate: new Decimal("59111.2") }), "61881.5").source_rate).toBeNull()
    expect(booksUpdate(invoiceBooksOf(operation({ source_rate: new Decimal("59111.2") }), "61881.5"))).toEqual({})
  })

  it("never keeps a rate that is not above zero, nor a negative commission", () => {
    expect(invoiceBooksAtCreation({ source_rate: new Decimal(0), invoice_commission: new Decimal("-1") })).toEqual({ source_rate: null, commission: null })
    expect(invoiceBooksAtCreation({ source_rate: new Decimal("76.47"), invoice_commission: new Decimal("0") })).toEqual({ source_rate: "76.47", commission: "0" })
  })

  it("an update never erases what the row had with a null", () => {
    expect(booksUpdate({ source_rate: null, commission: "1", network_fee: null, tx_ids: null, paid_at: null })).toEqual({ commission: "1" })
  })
})
