import type { AdminCryptoAttentionItem, AdminCryptoMoneyFact } from "../../../api/admin/crypto/types"
import { formatDecimal, formatFiat } from "../../lib/money"
import { formatDate } from "../common"

/** "0.0006 BTC (37.13 EUR)": the coin amount, and its value in the store's currency when known. */
export function moneyText(fact: AdminCryptoMoneyFact | null | undefined): string | null {
  if (fact === null || fact === undefined) return null
  const coin = `${formatDecimal(fact.amount)} ${fact.coin}`
  return fact.fiat === null ? coin : `${coin} (${formatFiat(fact.fiat.amount, fact.fiat.currency)})`
}

/** The money the item is about: what is due back, else the shortfall, else its amount in its coin. */
export function headlineMoney(item: AdminCryptoAttentionItem): { coin: string; fiat: string | null } | null {
  const fact = item.facts.invoice?.due ?? item.facts.invoice?.shortfall ?? null
  if (fact !== null) return { coin: `${formatDecimal(fact.amount)} ${fact.coin}`, fiat: fact.fiat === null ? null : formatFiat(fact.fiat.amount, fact.fiat.currency) }
  if (item.amount === null) return null
  return { coin: `${formatDecimal(item.amount)} ${item.currency ?? item.psys_cid ?? ""}`.trim(), fiat: null }
}

// Inline grid templates: the admin's stylesheet carries only the utility classes the dashboard itself uses.
const LIST_STYLE: React.CSSProperties = { display: "grid", gridTemplateColumns: "max-content minmax(0, 1fr)", columnGap: "1.5rem", rowGap: "0.375rem", alignContent: "start" }
const GROUPS_STYLE: React.CSSProperties = { display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(20rem, 1fr))", columnGap: "2.5rem", rowGap: "0.375rem" }

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <>
    <dt className="txt-compact-small text-ui-fg-subtle">{label}</dt>
    <dd className="txt-compact-small text-ui-fg-base" style={{ overflowWrap: "anywhere" }}>{children}</dd>
  </>
)

/** The labelled facts of an item: order, customer, amounts (coin and store currency), the gateway's word, when. */
export const AttentionFactsList = ({ item }: { item: AdminCryptoAttentionItem }) => {
  const { order, invoice } = item.facts
  const customer = order === null ? null : [order.customer_name, order.email].filter((part) => part !== null && part !== "").join(" · ")
  const amounts: Array<[string, string | null]> = invoice === null
    ? [["Amount", item.amount === null ? null : `${formatDecimal(item.amount)} ${item.currency ?? item.psys_cid ?? ""}`]]
    : [
        ["Expected", moneyText(invoice.expected)],
        ["Received", moneyText(invoice.received)],
        ["Due back", moneyText(invoice.due)],
        ["Short by", moneyText(invoice.shortfall)],
      ]
  return (
    <div style={GROUPS_STYLE} aria-label="Facts">
      <dl style={LIST_STYLE}>
        {order !== null ? (
          <Row label="Order">
            <a href={`/app/orders/${order.id}`} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
              {order.display_id !== null ? `Order #${order.display_id}` : "Open the order"}
            </a>
            {order.status ? <span className="text-ui-fg-subtle"> · {order.status.replace(/_/g, " ")}</span> : null}
          </Row>
        ) : item.order_id !== null ? (
          <Row label="Order">
            <a href={`/app/orders/${item.order_id}`} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover">Open the order</a>
          </Row>
        ) : (
          <Row label="Order">
            <span className="text-ui-fg-subtle">none placed</span>
          </Row>
        )}
        {customer ? <Row label="Customer">{customer}</Row> : null}
        {item.facts.gateway_status !== null ? <Row label="Gateway says">{item.facts.gateway_status}</Row> : null}
        <Row label="When">{formatDate(item.facts.when)}</Row>
      </dl>
      <dl style={LIST_STYLE}>
        {amounts.filter((entry): entry is [string, string] => entry[1] !== null).map(([label, value]) => (
          <Row key={label} label={label}>{value}</Row>
        ))}
      </dl>
    </div>
  )
}

const rawText = (value: unknown): string => (value === null || value === undefined ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value))

/** The raw record behind an item (ids, evidence keys), for support and the gateway's dashboard. */
export const AttentionDetails = ({ item }: { item: AdminCryptoAttentionItem }) => {
  const raw: Array<[string, unknown]> = [
    ["item", item.id],
    ["kind", item.kind],
    ["subject", item.subject_id],
    ["order_id", item.order_id],
    ["cart_id", item.cart_id],
    ["withdrawal_id", item.withdrawal_id],
    ...Object.entries(item.evidence),
  ]
  return (
    <details>
      <summary className="txt-compact-small-plus text-ui-fg-subtle hover:text-ui-fg-base cursor-pointer select-none" style={{ width: "fit-content" }}>Details</summary>
      <dl className="bg-ui-bg-subtle mt-2 rounded-md px-3 py-2" style={{ ...LIST_STYLE, rowGap: "0.25rem" }}>
        {raw.filter(([, value]) => value !== null && value !== undefined).map(([key, value]) => (
          <Row key={key} label={key}>
            <span className="font-mono">{rawText(value)}</span>
          </Row>
        ))}
      </dl>
    </details>
  )
}
