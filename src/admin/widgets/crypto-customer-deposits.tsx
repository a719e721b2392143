import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Container, Heading, Table, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { CoinSelect } from "../components/coin-select"
import { CryptoStatusBadge, formatDate, QueryState, TxLinks } from "../components/common"
import { cryptoApi, errorMessage } from "../lib/api"
import { formatDecimal } from "../lib/money"
import type { CustomerDeposits } from "../lib/types"

/**
 * The customer's crypto deposits (white-label, spec §4.10): the deposit addresses made for this
 * customer (their uid is the customer id), the pay_ins received on them (spec §6.2) and the totals
 * per coin. A new address can be made here.
 */
const CryptoCustomerDepositsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const queryClient = useQueryClient()
  const [coin, setCoin] = useState("")
  const deposits = useQuery({
    queryKey: ["crypto", "customer-deposits", customer.id],
    queryFn: () => cryptoApi.get<CustomerDeposits>(`/customers/${customer.id}/deposits`),
    retry: false,
  })
  const create = useMutation({
    mutationFn: () => cryptoApi.post<{ deposits: unknown[] }>("/deposits", { uid: customer.id, psys_cid: coin }),
    onSuccess: () => {
      toast.success("Deposit address created")
      queryClient.invalidateQueries({ queryKey: ["crypto", "customer-deposits", customer.id] })
    },
    onError: (error) => toast.error("No deposit address", { description: errorMessage(error) }),
  })
  const data = deposits.data
  return (
    <Container className="divide-y p-0" aria-label="Crypto deposits">
      <div className="px-6 py-4">
        <Heading level="h2">Crypto deposits</Heading>
        <Text size="small" className="text-ui-fg-subtle">Deposit addresses of this customer and the payments received on them.</Text>
      </div>
      <QueryState isLoading={deposits.isLoading} error={deposits.error ? errorMessage(deposits.error) : null} onRetry={() => deposits.refetch()}>
        {data ? (
          <div className="flex flex-col gap-y-4 px-6 py-4">
            {data.totals.length > 0 ? (
              <div aria-label="Deposit totals" className="flex flex-wrap gap-4">
                {data.totals.map((t) => (
                  <div key={t.psys_cid} className="rounded-md border px-3 py-2">
                    <Text size="small" weight="plus">{formatDecimal(t.confirmed)} {t.currency ?? t.psys_cid}</Text>
                    <Text size="xsmall" className="text-ui-fg-subtle">{t.psys_cid} · {t.count} payment{t.count === 1 ? "" : "s"}{t.pending !== "0" ? ` · ${formatDecimal(t.pending)} pending` : ""}</Text>
                  </div>
                ))}
              </div>
            ) : null}
            <div className="flex flex-col gap-y-1">
              <Text size="small" weight="plus">Addresses</Text>
              {data.addresses_error ? <Text size="small" className="text-ui-fg-subtle">{data.addresses_error}</Text> : null}
              {data.addresses.length === 0 && !data.addresses_error ? <Text size="small" className="text-ui-fg-muted">No deposit address yet.</Text> : null}
              {data.addresses.map((a) => (
                <Text key={`${a.psys_cid}-${a.hash}`} size="small" className="font-mono break-all">{a.psys_cid}: {a.hash}</Text>
              ))}
              <div className="flex items-end gap-x-2 pt-1">
                <div className="w-56"><CoinSelect id="customer-deposit-coin" value={coin} onChange={setCoin} /></div>
                <Button size="small" variant="secondary" disabled={coin === ""} isLoading={create.isPending} onClick={() => create.mutate()}>New address</Button>
              </div>
            </div>
            {data.pay_ins.length > 0 ? (
              <Table aria-label="Deposit payments">
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell>Received</Table.HeaderCell>
                    <Table.HeaderCell>Amount</Table.HeaderCell>
                    <Table.HeaderCell>Status</Table.HeaderCell>
                    <Table.HeaderCell>Transaction</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.pay_ins.map((p) => (
                    <Table.Row key={p.id}>
                      <Table.Cell>{formatDate(p.received_at)}</Table.Cell>
                      <Table.Cell>{formatDecimal(p.amount)} {p.currency ?? p.psys_cid}</Table.Cell>
                      <Table.Cell><CryptoStatusBadge status={p.status} /></Table.Cell>
                      <Table.Cell><TxLinks urls={p.tx_urls} /></Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            ) : (
              <Text size="small" className="text-ui-fg-muted">No payment received yet.</Text>
            )}
          </div>
        ) : null}
      </QueryState>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "customer.details.after",
})

export default CryptoCustomerDepositsWidget
