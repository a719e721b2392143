import { Select, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { FeePlanEntry, FeePlansResponse } from "../lib/types"

type FeePlan = "normal" | "priority"

/** What a plan costs or how fast it is, as the gateway says (spec §2.6). */
const describe = (plan: FeePlanEntry, unit: string): string =>
  [
    plan.value ? `fee ${formatDecimal(plan.value)} ${unit}` : null,
    plan.conf_target !== undefined && plan.conf_target !== null ? `within ~${plan.conf_target} blocks` : null,
    plan.gasPrice ? `gas price ${plan.gasPrice} gwei` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(", ")

/** The coin's fee plans from the gateway (GET /admin/crypto/fee-plans/:psys_cid), not a fixed list. */
export const FeePlanSelect = ({ coin, unit, value, onChange, id }: { coin: string; unit: string; value: FeePlan; onChange: (plan: FeePlan) => void; id?: string }) => {
  const plans = useQuery({
    queryKey: ["crypto", "fee-plans", coin],
    queryFn: () => cryptoApi.get<FeePlansResponse>(`/fee-plans/${encodeURIComponent(coin)}`),
    enabled: coin !== "",
    staleTime: 60_000,
    retry: false,
  })
  // Only the plans a withdrawal can ask for (spec §4.2 feePlan) and the gateway offers for this coin.
  const offered = Object.entries(plans.data?.plans ?? {}).filter((entry): entry is [FeePlan, FeePlanEntry] => entry[0] === "normal" || entry[0] === "priority")
  return (
    <div className="flex flex-col gap-y-1">
      <Select value={value} onValueChange={(v) => onChange(v === "priority" ? "priority" : "normal")} disabled={coin === "" || plans.isLoading || offered.length === 0}>
        <Select.Trigger id={id}>
          <Select.Value placeholder={coin === "" ? "Pick a coin first" : plans.isLoading ? "Loading fee plans…" : "Select a fee plan"} />
        </Select.Trigger>
        <Select.Content>
          {offered.map(([name, plan]) => (
            <Select.Item key={name} value={name}>
              {name === "priority" ? "Priority" : "Normal"}
              {describe(plan, unit) ? ` — ${describe(plan, unit)}` : ""}
            </Select.Item>
          ))}
        </Select.Content>
      </Select>
      {plans.error ? <Text size="small" className="text-ui-fg-error">{errorMessage(plans.error)}</Text> : null}
    </div>
  )
}
