import { formatDecimal } from "../lib/money"
import type { RecordedExchange } from "../lib/types"
import { ExchangeResolvePanel } from "./exchange-resolve-panel"
import { RecordedHistory } from "./recorded-history"

/** The exchanges recorded here with their state, newest first; an unknown outcome can be resolved. */
export const ExchangesHistory = () => (
  <RecordedHistory<"exchanges", RecordedExchange>
    resource="exchanges"
    label="Exchanges history"
    title="Exchanges"
    description="Every exchange created from here, with its state."
    emptyText="No exchange recorded yet."
    columns={[
      {
        header: "Exchange",
        cell: (e) => (e.from_amount ? `${formatDecimal(e.from_amount)} ${e.from_currency} → ${e.to_currency}` : `${e.from_currency} → ${formatDecimal(e.to_amount)} ${e.to_currency}`),
      },
      { header: "Gateway id", cell: (e) => e.exchange_id ?? "—" },
    ]}
    needsDecision={(e) => e.status === "outcome_unknown"}
    panel={(e, close) => <ExchangeResolvePanel exchange={e} onClose={close} />}
  />
)
