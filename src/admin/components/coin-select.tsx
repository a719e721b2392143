import { Select } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { cryptoApi } from "../lib/api"
import type { CurrenciesResponse } from "../lib/types"

export const useCurrencies = (fiat?: string) =>
  useQuery({
    queryKey: ["crypto", "currencies", fiat ?? "USD"],
    queryFn: () => cryptoApi.get<CurrenciesResponse>("/currencies", { fiat }),
    staleTime: 60_000,
  })

/** A coin picker over the gateway's list (psys_cid), with the code when it differs. */
export const CoinSelect = ({
  value,
  onChange,
  id,
  placeholder = "Select a coin",
  coins,
}: {
  value: string
  onChange: (value: string) => void
  id?: string
  placeholder?: string
  coins?: readonly string[]
}) => {
  const { data, isLoading } = useCurrencies()
  const options = (data?.currencies ?? []).filter((c) => coins === undefined || coins.includes(c.cid))
  return (
    <Select value={value} onValueChange={onChange} disabled={isLoading}>
      <Select.Trigger id={id}>
        <Select.Value placeholder={isLoading ? "Loading coins…" : placeholder} />
      </Select.Trigger>
      <Select.Content>
        {options.map((c) => (
          <Select.Item key={c.cid} value={c.cid}>
            {c.cid}
            {c.currency && c.currency !== c.cid ? ` (${c.currency})` : ""}
            {c.name ? ` — ${c.name}` : ""}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  )
}
