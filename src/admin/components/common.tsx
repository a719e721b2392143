import { Button, StatusBadge, Text } from "@medusajs/ui"
import { GatewayStatus, type KnownStatus } from "../../gateway/types/common"

type Color = "green" | "red" | "blue" | "orange" | "grey" | "purple"

/** The gateway's statuses (spec §3), from the one declaration: a status added there fails the build here. */
const GATEWAY_STATUS_COLORS: Record<KnownStatus, Color> = {
  [GatewayStatus.Completed]: "green",
  [GatewayStatus.Mismatch]: "purple",
  [GatewayStatus.Pending]: "orange",
  [GatewayStatus.PendingInternal]: "orange",
  [GatewayStatus.New]: "blue",
  [GatewayStatus.Expired]: "red",
  [GatewayStatus.Error]: "red",
  [GatewayStatus.Cancelled]: "grey",
  [GatewayStatus.CancelledDuplicate]: "grey",
}

/** Gateway statuses, then the plugin's own withdrawal and exchange states. */
const STATUS_COLORS: Record<string, Color> = {
  ...GATEWAY_STATUS_COLORS,
  awaiting_approval: "orange",
  requested: "blue",
  sending: "orange",
  outcome_unknown: "orange",
  rejected: "red",
  not_found: "grey",
  not_sent: "grey",
  created: "blue",
}

const LABELS: Record<string, string> = { awaiting_approval: "awaiting approval", outcome_unknown: "outcome unknown", not_found: "not found (older record)", not_sent: "not sent (confirmed)" }

/** A gateway or withdrawal status as a colored badge (spec §3). */
export const CryptoStatusBadge = ({ status }: { status: string | null | undefined }) => {
  const value = status ?? "unknown"
  return <StatusBadge color={STATUS_COLORS[value] ?? "grey"}>{LABELS[value] ?? value}</StatusBadge>
}

/** Block-explorer links; only http(s) URLs are rendered as links. */
export const TxLinks = ({ urls }: { urls: ReadonlyArray<string> | null | undefined }) => {
  const safe = (urls ?? []).filter((url) => /^https?:\/\//i.test(url))
  if (safe.length === 0) return <Text size="small" className="text-ui-fg-muted">—</Text>
  return (
    <div className="flex flex-col gap-y-1">
      {safe.map((url, index) => (
        <a key={url} href={url} target="_blank" rel="noreferrer noopener" className="txt-compact-small text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
          {safe.length > 1 ? `tx ${index + 1}` : "View transaction"}
        </a>
      ))}
    </div>
  )
}

/** Loading, error (with retry) and empty states around a block of content. */
export const QueryState = ({
  isLoading,
  error,
  isEmpty,
  emptyText,
  onRetry,
  children,
}: {
  isLoading: boolean
  error: string | null
  isEmpty?: boolean
  emptyText?: string
  onRetry?: () => void
  children: React.ReactNode
}) => {
  if (isLoading) {
    return (
      <div className="px-6 py-4" role="status">
        <Text size="small" className="text-ui-fg-subtle">Loading…</Text>
      </div>
    )
  }
  if (error !== null) {
    return (
      <div className="flex items-center justify-between gap-x-4 px-6 py-4" role="alert">
        <Text size="small" className="text-ui-fg-error">{error}</Text>
        {onRetry ? <Button size="small" variant="secondary" onClick={onRetry}>Retry</Button> : null}
      </div>
    )
  }
  if (isEmpty) {
    return (
      <div className="px-6 py-4">
        <Text size="small" className="text-ui-fg-muted">{emptyText ?? "Nothing here yet."}</Text>
      </div>
    )
  }
  return <>{children}</>
}

/** A label/value row of a detail list. */
export const Field = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <div className="grid grid-cols-2 items-start gap-x-4 py-1">
    <Text size="small" leading="compact" weight="plus" className="text-ui-fg-subtle">{label}</Text>
    <div className="txt-compact-small break-all">{children}</div>
  </div>
)

export const formatUtc = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined ? "—" : new Date(seconds * 1000).toLocaleString()

export const formatDate = (value: string | null | undefined): string => (value ? new Date(value).toLocaleString() : "—")
