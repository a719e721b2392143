import { exact } from "../../core/money"
import type { BoughtItem, SessionOfCart } from "./deps"

/**
 * The longest `order_name` and `description` we send. Spec §4.1 states no limit for either (both
 * "string"); we stay within 255 characters, the usual width of such a column, and keep the name,
 * which a dashboard shows as a title, to 100. Counted in characters (code points), not bytes.
 */
export const ORDER_NAME_MAX_CHARS = 100
export const DESCRIPTION_MAX_CHARS = 255

/** What the gateway's dashboard and hosted page show for an invoice (spec §4.1 `order_name`, `description`). */
export interface InvoiceText {
  order_name: string
  /** Absent when nothing is known of what is bought. */
  description?: string
}

const chars = (text: string): string[] => Array.from(text)

/** At most `max` characters: cut with "…" when longer. */
function clip(text: string, max: number): string {
  const all = chars(text)
  return all.length <= max ? text : `${all.slice(0, max - 1).join("").trimEnd()}…`
}

/** One line of the description: "Blue T-shirt × 2" (the title alone when the quantity is unknown). */
const line = (item: BoughtItem): string => {
  const title = item.title.replace(/\s+/g, " ").trim() || "Item"
  return item.quantity === null ? title : `${title} × ${item.quantity}`
}

/** "1 item", "3 items": the units bought, or the lines when a quantity is unknown. */
function itemCount(items: readonly BoughtItem[]): string {
  const units = items.every((item) => item.quantity !== null) ? items.reduce((sum, item) => sum.plus(item.quantity ?? 0), exact(0)) : exact(items.length)
  return `${units.toFixed()} ${units.eq(1) ? "item" : "items"}`
}

/**
 * The items as "Blue T-shirt × 1, Mug × 2", within `max` characters: whole lines while they fit,
 * then "and N more"; a first line longer than everything is cut with "…".
 */
export function describeItems(items: readonly BoughtItem[], max = DESCRIPTION_MAX_CHARS): string | undefined {
  const lines = items.map(line)
  if (lines.length === 0) return undefined
  const whole = lines.join(", ")
  if (chars(whole).length <= max) return whole
  for (let kept = lines.length - 1; kept >= 1; kept -= 1) {
    const text = `${lines.slice(0, kept).join(", ")} and ${lines.length - kept} more`
    if (chars(text).length <= max) return text
  }
  if (lines.length === 1) return clip(lines[0], max)
  const more = ` and ${lines.length - 1} more`
  return `${clip(lines[0], max - chars(more).length)}${more}`
}

/**
 * The invoice's words, in the store's terms rather than our ids: "Acme Store: 2 items" for a cart,
 * "Order #12 at Acme Store" for a collection that belongs to an order (Medusa bills it after
 * checkout), and the items as the description. Without a store name or items it falls back to
 * "Order <order number>", as our order number is the one thing always known. The order number
 * itself is sent apart (`order_number`) and stays ours.
 */
export function invoiceText(session: Pick<SessionOfCart, "order" | "items" | "store_name">, orderNumber: string): InvoiceText {
  const store = session.store_name
  const displayId = session.order?.display_id ?? null
  let name: string
  if (displayId !== null) {
    name = store === null ? `Order #${displayId}` : `Order #${displayId} at ${store}`
  } else if (session.items.length > 0) {
    name = store === null ? `Order of ${itemCount(session.items)}` : `${store}: ${itemCount(session.items)}`
  } else {
    name = store === null ? `Order ${orderNumber}` : `${store}: order ${orderNumber}`
  }
  const description = describeItems(session.items)
  return { order_name: clip(name, ORDER_NAME_MAX_CHARS), ...(description === undefined ? {} : { description }) }
}
