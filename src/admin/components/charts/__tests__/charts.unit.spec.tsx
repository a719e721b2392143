/**
 * @jest-environment jsdom
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { configure, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { ChartsTab } from "../../charts-tab"
import type { AttentionChartResponse, BalanceChartResponse, VolumeChartResponse } from "../types"

// Rendering three charts in jsdom took 4.5 s on a loaded CI machine, near jest's default 5 s.
// Speed is not what these tests check.
jest.setTimeout(60_000)
// findBy* and waitFor wait for the chart itself; their default bound (1 s) is shorter than a loaded
// machine takes to draw one, so they are bounded at 30 s (within the test's own 60 s) instead.
configure({ asyncUtilTimeout: 30_000 })

const get = jest.fn()
// The admin API client is the one seam: the charts' answers are made here, no server runs.
jest.mock("../../../lib/api", () => ({
  cryptoApi: { get: (...args: unknown[]) => get(...args) },
  errorMessage: (error: unknown) => (error instanceof Error ? error.message : "Something went wrong"),
}))

// jsdom measures nothing: the chart library's container needs a ResizeObserver to exist.
class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
let warn: jest.SpyInstance
beforeAll(() => {
  Object.assign(globalThis, { ResizeObserver: NoResizeObserver })
  // …and, measuring nothing, the library warns that its charts are 0 × 0: that one warning is expected here.
  const original = console.warn
  warn = jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes("of chart should be greater than 0")) original(...args)
  })
})
afterAll(() => warn.mockRestore())

const volume: VolumeChartResponse = {
  interval: "day",
  from: "2026-10-29T00:00:00.000Z",
  to: "2026-11-27T12:00:00.000Z",
  fiat_currency: "EUR",
  buckets: ["2026-11-26", "2026-11-27"],
  series: [
    {
      psys_cid: "BTC",
      currency: "BTC",
      received: "0.123456789012345678",
      fiat_value: "7304.12",
      points: [
        { bucket: "2026-11-26", received: "0", fiat_value: "0.00", invoices: 0, unvalued: 0 },
        { bucket: "2026-11-27", received: "0.123456789012345678", fiat_value: "7304.12", invoices: 3, unvalued: 1 },
      ],
    },
  ],
  fiat_totals: [
    { bucket: "2026-11-26", fiat_value: "0.00" },
    { bucket: "2026-11-27", fiat_value: "7304.12" },
  ],
  provider_id: null,
}

const balances: BalanceChartResponse = {
  from: "2026-10-29",
  to: "2026-11-27",
  days: ["2026-11-27"],
  series: [{ psys_cid: "ETH", currency: "ETH", points: [{ day: "2026-11-27", balance: "1234.000000000000000001", fiat_currency: "EUR", fiat_value: "3542627.50" }] }],
  provider_id: "pp_crypto_crypto",
}

const attention: AttentionChartResponse = {
  ages: ["under_1_day", "1_to_7_days", "7_to_30_days", "over_30_days"],
  kinds: [{ kind: "overpaid", total: 3, ages: { under_1_day: 1, "1_to_7_days": 0, "7_to_30_days": 0, over_30_days: 2 } }],
  total: 3,
  at: "2026-11-27T12:00:00.000Z",
  truncated: false,
}

function answer(path: string): unknown {
  if (path === "/charts/volume") return volume
  if (path === "/charts/balances") return balances
  if (path === "/charts/attention") return attention
  throw new Error(`unexpected ${path}`)
}

function renderTab() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <ChartsTab />
    </QueryClientProvider>
  )
}

const showTable = (chart: HTMLElement) => fireEvent.click(within(chart).getByRole("switch"))

beforeEach(() => {
  get.mockReset()
  get.mockImplementation(async (path: string) => answer(path))
})

describe("Charts tab", () => {
  it("each chart has its heading, a sentence, a container and its table view", async () => {
    renderTab()
    for (const [id, heading] of [
      ["chart-volume", "Received volume"],
      ["chart-balances", "Balances over time"],
      ["chart-attention", "Needs attention"],
    ]) {
      const chart = await screen.findByTestId(id)
      expect(within(chart).getByRole("heading", { name: heading })).toBeTruthy()
      await waitFor(() => expect(within(chart).getByTestId(`${id}-plot`)).toBeTruthy())
      showTable(chart)
      expect(within(chart).getByTestId(`${id}-table`)).toBeTruthy()
      expect(within(chart).queryByTestId(`${id}-plot`)).toBeNull()
    }
  })

  it("the volume table shows every digit of the coins received and the value in the store's currency", async () => {
    renderTab()
    const chart = await screen.findByTestId("chart-volume")
    await waitFor(() => expect(within(chart).getByTestId("chart-volume-plot")).toBeTruthy())
    showTable(chart)
    const rows = within(within(chart).getByTestId("chart-volume-table")).getAllByRole("row")
    // The header and the one bucket with money (empty buckets are not listed).
    expect(rows).toHaveLength(2)
    expect(rows[1].textContent).toContain("0.123456789012345678 BTC")
    expect(rows[1].textContent).toContain("7,304.12 EUR")
    expect(within(chart).getByText(/1 invoice\(s\) priced in another currency/)).toBeTruthy()
  })

  it("the interval switch asks for weeks and months", async () => {
    renderTab()
    const chart = await screen.findByTestId("chart-volume")
    fireEvent.click(within(chart).getByRole("button", { name: "Week" }))
    await waitFor(() => expect(get).toHaveBeenCalledWith("/charts/volume", { interval: "week" }))
    expect(within(chart).getByRole("button", { name: "Week" }).getAttribute("aria-pressed")).toBe("true")
    fireEvent.click(within(chart).getByRole("button", { name: "Month" }))
    await waitFor(() => expect(get).toHaveBeenCalledWith("/charts/volume", { interval: "month" }))
  })

  it("the balances and attention tables give the same numbers", async () => {
    renderTab()
    const balancesChart = await screen.findByTestId("chart-balances")
    await waitFor(() => expect(within(balancesChart).getByTestId("chart-balances-plot")).toBeTruthy())
    showTable(balancesChart)
    const balanceRow = within(within(balancesChart).getByTestId("chart-balances-table")).getAllByRole("row")[1]
    expect(balanceRow.textContent).toContain("1,234.000000000000000001 ETH")
    expect(balanceRow.textContent).toContain("3,542,627.50 EUR")

    const attentionChart = await screen.findByTestId("chart-attention")
    await waitFor(() => expect(within(attentionChart).getByTestId("chart-attention-plot")).toBeTruthy())
    showTable(attentionChart)
    const cells = within(within(attentionChart).getByTestId("chart-attention-table")).getAllByRole("row")[1].querySelectorAll("td")
    expect([...cells].map((cell) => cell.textContent)).toEqual([expect.any(String), "1", "0", "0", "2", "3"])
  })

  it("an empty chart says so, and a failed one offers a retry that asks again", async () => {
    let fail = true
    get.mockImplementation(async (path: string) => {
      if (path === "/charts/balances") return { ...balances, days: [], series: [] }
      if (path === "/charts/attention" && fail) throw new Error("The gateway did not answer")
      return answer(path)
    })
    renderTab()
    expect(await screen.findByText(/No balance snapshot yet/)).toBeTruthy()
    const chart = await screen.findByTestId("chart-attention")
    const alert = await within(chart).findByRole("alert")
    expect(alert.textContent).toContain("The gateway did not answer")
    fail = false
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }))
    await waitFor(() => expect(within(chart).getByTestId("chart-attention-plot")).toBeTruthy())
  })
})
