import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CurrencyDollar } from "@medusajs/icons"
import { Badge, Container, Heading, Tabs, Text } from "@medusajs/ui"
import { ApprovalsTab, useApprovalCount } from "../../components/approvals-tab"
import { AttentionTab, useAttentionCount } from "../../components/attention-tab"
import { BalancesTab } from "../../components/balances-tab"
import { BooksExportButton } from "../../components/books-export"
import { ChartsTab } from "../../components/charts-tab"
import { DepositsTab } from "../../components/deposits-tab"
import { ExchangeTab } from "../../components/exchange-tab"
import { HistoryTab } from "../../components/history-tab"
import { OperationsTab } from "../../components/operations-tab"
import { WithdrawTab } from "../../components/withdraw-tab"

const CryptoPage = () => {
  const attention = useAttentionCount()
  const approvals = useApprovalCount()
  return (
    <Container className="divide-y p-0">
      <div className="flex items-start justify-between gap-x-4 px-6 py-4">
        <div>
          <Heading level="h1">Crypto</Heading>
          <Text size="small" className="text-ui-fg-subtle">Balances, withdrawals, operations, deposits and exchanges of your crypto gateway.</Text>
        </div>
        <BooksExportButton />
      </div>
      <Tabs defaultValue="balances">
        <Tabs.List className="px-6 py-2">
          <Tabs.Trigger value="balances">Balances</Tabs.Trigger>
          <Tabs.Trigger value="charts">Charts</Tabs.Trigger>
          <Tabs.Trigger value="withdraw">Withdraw</Tabs.Trigger>
          <Tabs.Trigger value="operations">Operations</Tabs.Trigger>
          <Tabs.Trigger value="deposits">Deposits</Tabs.Trigger>
          <Tabs.Trigger value="exchange">Exchange</Tabs.Trigger>
          <Tabs.Trigger value="approvals">
            To approve
            {approvals ? <Badge size="2xsmall" color="orange" className="ml-2" data-testid="approval-count">{approvals}</Badge> : null}
          </Tabs.Trigger>
          <Tabs.Trigger value="history">History</Tabs.Trigger>
          <Tabs.Trigger value="attention">
            Needs attention
            {attention ? <Badge size="2xsmall" color="orange" className="ml-2" data-testid="attention-count">{attention}</Badge> : null}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="balances"><BalancesTab /></Tabs.Content>
        <Tabs.Content value="approvals"><ApprovalsTab /></Tabs.Content>
        <Tabs.Content value="charts"><ChartsTab /></Tabs.Content>
        <Tabs.Content value="withdraw"><WithdrawTab /></Tabs.Content>
        <Tabs.Content value="operations"><OperationsTab /></Tabs.Content>
        <Tabs.Content value="deposits"><DepositsTab /></Tabs.Content>
        <Tabs.Content value="exchange"><ExchangeTab /></Tabs.Content>
        <Tabs.Content value="history"><HistoryTab /></Tabs.Content>
        <Tabs.Content value="attention"><AttentionTab /></Tabs.Content>
      </Tabs>
    </Container>
  )
}

export const config = defineRouteConfig({
  label: "Crypto",
  icon: CurrencyDollar,
})

export default CryptoPage
