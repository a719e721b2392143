import { AttentionChart } from "./charts/attention-chart"
import { BalancesChart } from "./charts/balances-chart"
import { VolumeChart } from "./charts/volume-chart"

/**
 * Crypto → Charts (docs/books.md): received volume, balances over time and the Needs-attention
 * queue by age, each with a table view of the same numbers.
 */
export const ChartsTab = () => (
  <div className="flex flex-col divide-y">
    <VolumeChart />
    <BalancesChart />
    <AttentionChart />
  </div>
)
