import { ExchangesHistory } from "./exchanges-history"
import { MoneyOutAudit } from "./money-out-audit"
import { WithdrawalsHistory } from "./withdrawals-history"

/** What left the shop's balance from here: withdrawals, crypto refunds and exchanges, with their state, and the money-out policy's decisions. */
export const HistoryTab = () => (
  <div className="flex flex-col gap-y-8 px-6 py-4">
    <WithdrawalsHistory />
    <ExchangesHistory />
    <MoneyOutAudit />
  </div>
)
