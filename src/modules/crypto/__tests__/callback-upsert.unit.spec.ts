import { callbackUpsert, storedCallbackOf } from "../callback-upsert"

const delivery = {
  provider_id: "pp_crypto_crypto",
  content_hash: "abc",
  format: "json" as const,
  fields: { status: "completed", amount: "0.000175" },
  ipn_type: "invoice",
  txn_id: "INV-1",
  order_number: "cart_1",
  switch_id: null,
  status: "completed",
}

describe("callbackUpsert", () => {
  it("stores a delivery or counts a redelivery in one statement on the live unique content hash", () => {
    const { sql } = callbackUpsert("ccb_1", delivery)
    expect(sql.match(/;/g)).toBeNull()
    expect(sql).toMatch(/^insert into "crypto_callback"/)
    expect(sql).toContain(`on conflict ("content_hash") where "deleted_at" is null do update set "delivery_count" = "crypto_callback"."delivery_count" + 1`)
    expect(sql).toMatch(/returning "id", "delivery_count", "processed_at", "failure_count"$/)
  })

  it("binds every value as a parameter, the fields as JSON", () => {
    const { sql, params } = callbackUpsert("ccb_1", delivery)
    expect(sql.match(/\?/g)).toHaveLength(params.length)
    expect(params).toEqual(["ccb_1", "pp_crypto_crypto", "abc", "json", "invoice", "INV-1", "cart_1", null, "completed", JSON.stringify(delivery.fields), null])
  })

  it("reads a first delivery and a processed redelivery from the returned row", () => {
    expect(storedCallbackOf({ id: "ccb_1", delivery_count: 1, processed_at: null, failure_count: 0 })).toEqual({ id: "ccb_1", delivery_count: 1, processed: false, failure_count: 0 })
    expect(storedCallbackOf({ id: "ccb_1", delivery_count: "3", processed_at: new Date(), failure_count: 2 })).toEqual({ id: "ccb_1", delivery_count: 3, processed: true, failure_count: 2 })
  })

  it("refuses an answer without a row", () => {
    expect(() => storedCallbackOf(undefined)).toThrow("storing a crypto callback returned no row")
  })

  it("stores a pay_in's deposit uid in its own column, and nothing for an invoice callback", () => {
    const payIn = { ...delivery, ipn_type: "pay_in", fields: { ...delivery.fields, deposit_uid: "cus_1" } }
    expect(callbackUpsert("ccb_2", payIn).params.at(-1)).toBe("cus_1")
    expect(callbackUpsert("ccb_3", { ...delivery, fields: { ...delivery.fields, deposit_uid: "cus_1" } }).params.at(-1)).toBeNull()
  })
})
