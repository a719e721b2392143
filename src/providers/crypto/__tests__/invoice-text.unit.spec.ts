import { DESCRIPTION_MAX_CHARS, ORDER_NAME_MAX_CHARS, describeItems, invoiceText } from "../invoice-text"

const item = (title: string, quantity: string | null = "1") => ({ title, quantity })

describe("invoiceText", () => {
  it("names a cart's invoice after the store and the units bought, and lists the items", () => {
    expect(invoiceText({ store_name: "Acme Store", order: undefined, items: [item("Blue T-shirt"), item("Mug", "2")] }, "cart_1")).toEqual({
      order_name: "Acme Store: 3 items",
      description: "Blue T-shirt × 1, Mug × 2",
    })
  })

  it("names an order's invoice after its display id and the store", () => {
    const order = { id: "order_1", display_id: 12, email: null }
    expect(invoiceText({ store_name: "Acme Store", order, items: [item("Mug")] }, "paycol_1")).toEqual({ order_name: "Order #12 at Acme Store", description: "Mug × 1" })
    expect(invoiceText({ store_name: null, order, items: [] }, "paycol_1")).toEqual({ order_name: "Order #12" })
  })

  it("says one item in the singular and counts the lines when a quantity is unknown", () => {
    expect(invoiceText({ store_name: "Acme", order: undefined, items: [item("Mug")] }, "cart_1").order_name).toBe("Acme: 1 item")
    expect(invoiceText({ store_name: null, order: undefined, items: [item("Mug", null), item("Cap")] }, "cart_1")).toEqual({ order_name: "Order of 2 items", description: "Mug, Cap × 1" })
  })

  it("falls back to our order number when nothing else is known", () => {
    expect(invoiceText({ store_name: null, order: undefined, items: [] }, "cart_1")).toEqual({ order_name: "Order cart_1" })
  })

  it(`keeps the name within ${ORDER_NAME_MAX_CHARS} characters, cut with an ellipsis`, () => {
    const { order_name: name } = invoiceText({ store_name: "S".repeat(300), order: undefined, items: [item("Mug")] }, "cart_1")
    expect(Array.from(name)).toHaveLength(ORDER_NAME_MAX_CHARS)
    expect(name.endsWith("…")).toBe(true)
  })
})

describe("describeItems", () => {
  it("keeps whole items while they fit, then says how many more", () => {
    const items = Array.from({ length: 40 }, (_, index) => item(`Product number ${index + 1}`))
    const text = describeItems(items) ?? ""
    expect(Array.from(text).length).toBeLessThanOrEqual(DESCRIPTION_MAX_CHARS)
    expect(text).toMatch(/^Product number 1 × 1, Product number 2 × 1, .* and \d+ more$/)
  })

  it("cuts a first item longer than the whole bound, still saying how many more", () => {
    const text = describeItems([item("x".repeat(400)), item("Mug")], 50) ?? ""
    expect(Array.from(text)).toHaveLength(50)
    expect(text.endsWith("… and 1 more")).toBe(true)
  })

  it("counts characters, not bytes or UTF-16 units, and never splits one", () => {
    const text = describeItems([item("🎁".repeat(30))], 10) ?? ""
    expect(Array.from(text)).toEqual([..."🎁".repeat(9), "…"])
  })

  it("collapses white space in titles and names an untitled item", () => {
    expect(describeItems([item("  Blue\n  T-shirt "), item("   ")])).toBe("Blue T-shirt × 1, Item × 1")
  })

  it("has no description without items", () => {
    expect(describeItems([])).toBeUndefined()
  })
})
