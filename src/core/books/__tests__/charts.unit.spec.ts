import {
  attentionAgeOf,
  attentionChart,
  bucketCount,
  bucketOf,
  bucketsBetween,
  chartPeriod,
  readAttentionChart,
  readVolumeChart,
  receivedFiatValue,
  volumeChart,
  VOLUME_PAGE_SIZE,
  type VolumeInvoiceReader,
  type VolumeInvoiceRow,
  utcMomentOf,
} from "../charts"
import type { AttentionQueueService } from "../attention-queue"

const utc = (text: string) => new Date(text)

function invoice(fields: Partial<VolumeInvoiceRow>): VolumeInvoiceRow {
  return {
    psys_cid: "BTC",
    currency: "BTC",
    source_currency: "eur",
    source_amount: "10.50",
    expected_amount: "0.00015",
    received_amount: "0.00015",
    source_rate: null,
    paid_at: null,
    created_at: utc("2026-11-10T12:00:00Z"),
    ...fields,
  }
}

describe("buckets", () => {
  it("a day bucket is the UTC calendar day, whatever the hour", () => {
    expect(bucketOf(utc("2026-11-10T00:00:00Z"), "day")).toBe("2026-11-10")
    expect(bucketOf(utc("2026-11-10T23:59:59.999Z"), "day")).toBe("2026-11-10")
    expect(bucketOf(utc("2026-11-10T23:30:00-02:00"), "day")).toBe("2026-11-11")
  })

  it("a week bucket starts on the Monday of its ISO week", () => {
    // 2026-11-16 is a Monday; the Sunday after belongs to the same week.
    expect(bucketOf(utc("2026-11-16T00:00:00Z"), "week")).toBe("2026-11-16")
    expect(bucketOf(utc("2026-11-22T23:59:59Z"), "week")).toBe("2026-11-16")
    expect(bucketOf(utc("2026-11-23T00:00:00Z"), "week")).toBe("2026-11-23")
    // A week across a year's end: 2027-01-01 is a Friday, its week began on Monday 2026-12-28.
    expect(bucketOf(utc("2027-01-01T08:00:00Z"), "week")).toBe("2026-12-28")
  })

  it("a month bucket is the first of the UTC month", () => {
    expect(bucketOf(utc("2026-02-28T23:00:00Z"), "month")).toBe("2026-02-01")
    expect(bucketOf(utc("2026-12-31T23:59:59Z"), "month")).toBe("2026-12-01")
  })

  it("lists every bucket between two moments, empty ones included", () => {
    expect(bucketsBetween(utc("2026-11-29T10:00:00Z"), utc("2026-12-02T01:00:00Z"), "day")).toEqual(["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"])
    expect(bucketsBetween(utc("2026-11-01T00:00:00Z"), utc("2027-02-10T00:00:00Z"), "month")).toEqual(["2026-11-01", "2026-12-01", "2027-01-01", "2027-02-01"])
  })

  it("the default period is the last 30 days, 26 weeks or 12 months, the current one included", () => {
    const now = utc("2026-11-27T15:00:00Z")
    const day = chartPeriod("day", now)
    expect(day.from.toISOString()).toBe("2026-10-29T00:00:00.000Z")
    expect(bucketCount(day, "day")).toBe(30)
    const week = chartPeriod("week", now)
    expect(week.from.toISOString()).toBe("2026-06-01T00:00:00.000Z")
    expect(bucketCount(week, "week")).toBe(26)
    const month = chartPeriod("month", now)
    expect(month.from.toISOString()).toBe("2025-12-01T00:00:00.000Z")
    expect(bucketCount(month, "month")).toBe(12)
  })

  it("an asked period is kept as asked", () => {
    const period = chartPeriod("day", utc("2026-11-27T15:00:00Z"), { from: utc("2026-11-01T00:00:00Z"), to: utc("2026-11-08T00:00:00Z") })
    expect(bucketCount(period, "day")).toBe(7)
  })

  it("reads an ISO 8601 day as its 00:00 UTC and a date-time by its offset; refuses any other text and a day no calendar has", () => {
    expect(utcMomentOf("2026-11-01")?.toISOString()).toBe("2026-11-01T00:00:00.000Z")
    expect(utcMomentOf("2026-11-01T00:05:00+02:00")?.toISOString()).toBe("2026-10-31T22:05:00.000Z")
    for (const text of ["2026-11-01 00:05", "2026-11-01T00:05:00", "Nov 1 2026", "2026-02-30", "2026-02-30T00:00:00Z", "2026-11-01T25:00:00Z", ""]) {
      expect(utcMomentOf(text)).toBeNull()
    }
  })
})

describe("receivedFiatValue", () => {
  it("values the received coins at the invoice's own price: received × source_amount / expected_amount, half-up to cents", () => {
    // 0.0001 × 10.50 / 0.00015 = 7.00
    expect(receivedFiatValue(invoice({ received_amount: "0.0001" }))?.toFixed()).toBe("7")
    // 0.00001 × 10 / 0.00003 = 3.3333… → 3.33; 0.000025 × 10 / 0.00004 = 6.25; 0.0000125 × 1 / 0.00004 = 0.3125 → 0.31
    expect(receivedFiatValue(invoice({ received_amount: "0.00001", source_amount: "10", expected_amount: "0.00003" }))?.toFixed(2)).toBe("3.33")
    expect(receivedFiatValue(invoice({ received_amount: "0.000005", source_amount: "1", expected_amount: "0.000003" }))?.toFixed(2)).toBe("1.67")
  })

  it("rounds a half cent up", () => {
    // 0.00001 × 1.25 / 0.00002 = 0.625 → 0.63
    expect(receivedFiatValue(invoice({ received_amount: "0.00001", source_amount: "1.25", expected_amount: "0.00002" }))?.toFixed(2)).toBe("0.63")
  })

  it("uses the gateway's source_rate when the row has one", () => {
    expect(receivedFiatValue(invoice({ received_amount: "0.0002", source_rate: "70000.125" }))?.toFixed(2)).toBe("14.00")
    expect(receivedFiatValue(invoice({ received_amount: "0.00001", source_rate: "50500" }))?.toFixed(2)).toBe("0.51")
  })

  it("rounds to the currency's minor units (none for JPY)", () => {
    expect(receivedFiatValue(invoice({ source_currency: "jpy", received_amount: "0.0001", source_amount: "1735", expected_amount: "0.0002" }))?.toFixed()).toBe("868")
  })

  it("is unknown without a rate or an expected amount, and zero when nothing arrived", () => {
    expect(receivedFiatValue(invoice({ expected_amount: null }))).toBeNull()
    expect(receivedFiatValue(invoice({ received_amount: null }))?.toFixed()).toBe("0")
  })
})

describe("volumeChart", () => {
  const period = { from: utc("2026-11-09T00:00:00Z"), to: utc("2026-11-12T00:00:00Z") }

  it("sums received coins per coin and day exactly, and their value in the store's currency", () => {
    const chart = volumeChart(
      [
        invoice({ received_amount: "0.1", expected_amount: "0.1", source_amount: "7000.10", created_at: utc("2026-11-10T01:00:00Z") }),
        invoice({ received_amount: "0.2", expected_amount: "0.2", source_amount: "14000.20", created_at: utc("2026-11-10T23:00:00Z") }),
        invoice({ psys_cid: "ETH", currency: "ETH", received_amount: "1.000000000000000001", expected_amount: "1.000000000000000001", source_amount: "2500", created_at: utc("2026-11-11T05:00:00Z") }),
      ],
      "day",
      period,
      "eur"
    )
    expect(chart.fiat_currency).toBe("EUR")
    expect(chart.buckets).toEqual(["2026-11-09", "2026-11-10", "2026-11-11"])
    const btc = chart.series.find((s) => s.psys_cid === "BTC")
    expect(btc?.points.map((p) => [p.bucket, p.received, p.fiat_value, p.invoices])).toEqual([
      ["2026-11-09", "0", "0.00", 0],
      ["2026-11-10", "0.3", "21000.30", 2],
      ["2026-11-11", "0", "0.00", 0],
    ])
    const eth = chart.series.find((s) => s.psys_cid === "ETH")
    expect(eth?.received).toBe("1.000000000000000001")
    expect(chart.fiat_totals).toEqual([
      { bucket: "2026-11-09", fiat_value: "0.00" },
      { bucket: "2026-11-10", fiat_value: "21000.30" },
      { bucket: "2026-11-11", fiat_value: "2500.00" },
    ])
  })

  it("counts an invoice when the gateway finished it, else when it was created", () => {
    const chart = volumeChart([invoice({ created_at: utc("2026-11-08T23:00:00Z"), paid_at: utc("2026-11-09T00:30:00Z") })], "day", period, "EUR")
    expect(chart.series[0].points[0]).toMatchObject({ bucket: "2026-11-09", received: "0.00015", fiat_value: "10.50" })
  })

  it("leaves out rows outside the period and rows with nothing received", () => {
    const chart = volumeChart(
      [invoice({ created_at: utc("2026-11-12T00:00:00Z") }), invoice({ created_at: utc("2026-11-08T23:59:59Z") }), invoice({ received_amount: "0" })],
      "day",
      period,
      "EUR"
    )
    expect(chart.series).toEqual([])
  })

  it("counts an invoice priced in another fiat in coins and as unvalued, never converted", () => {
    const chart = volumeChart([invoice({ source_currency: "usd" })], "day", period, "EUR")
    expect(chart.series[0].points[1]).toMatchObject({ received: "0.00015", fiat_value: "0.00", invoices: 1, unvalued: 1 })
  })
})

describe("readVolumeChart", () => {
  it("reads the invoices that received coins in the period in bounded pages until a short page", async () => {
    const rows = Array.from({ length: VOLUME_PAGE_SIZE + 3 }, (_, i) => ({ ...invoice({ received_amount: "0.00001" }), id: `cinv_${i}` }))
    const calls: Array<{ filters: Record<string, unknown>; config: { skip?: number; take?: number } }> = []
    const service = {
      listCryptoInvoices: async (filters: Record<string, unknown>, config: { skip?: number; take?: number }) => {
        calls.push({ filters, config })
        return rows.slice(config.skip ?? 0, (config.skip ?? 0) + (config.take ?? rows.length))
      },
      listCryptoCallbacks: async () => [],
    } as unknown as VolumeInvoiceReader // A fake of the two list methods the reader calls.
    const chart = await readVolumeChart(service, { interval: "week", period: { from: utc("2026-11-09T00:00:00Z"), to: utc("2026-11-16T00:00:00Z") }, fiat_currency: "EUR" })
    expect(calls.map((call) => [call.config.skip, call.config.take])).toEqual([
      [0, VOLUME_PAGE_SIZE],
      [VOLUME_PAGE_SIZE, VOLUME_PAGE_SIZE],
    ])
    expect(calls[0].filters).toMatchObject({ received_amount: { $ne: null } })
    expect(chart.series[0].points).toEqual([{ bucket: "2026-11-09", received: "0.00503", fiat_value: "352.10", invoices: 503, unvalued: 0 }])
  })
})

describe("attention ages", () => {
  const now = utc("2026-11-27T12:00:00Z")

  it("sorts an item into under a day, 1–7 days, 7–30 days or over 30 days", () => {
    expect(attentionAgeOf(utc("2026-11-27T00:00:01Z"), now)).toBe("under_1_day")
    expect(attentionAgeOf(utc("2026-11-26T12:00:00Z"), now)).toBe("1_to_7_days")
    expect(attentionAgeOf(utc("2026-11-20T12:00:01Z"), now)).toBe("1_to_7_days")
    expect(attentionAgeOf(utc("2026-11-20T12:00:00Z"), now)).toBe("7_to_30_days")
    expect(attentionAgeOf("2026-10-28T12:00:00.000Z", now)).toBe("over_30_days")
  })

  it("counts open items per kind and age, the biggest kind first", () => {
    const chart = attentionChart(
      [
        { kind: "underpaid", created_at: utc("2026-11-27T10:00:00Z") },
        { kind: "overpaid", created_at: utc("2026-11-25T10:00:00Z") },
        { kind: "overpaid", created_at: utc("2026-09-01T10:00:00Z") },
        { kind: "withdrawal_unknown", created_at: utc("2026-11-10T10:00:00Z") },
      ],
      now
    )
    expect(chart.total).toBe(4)
    expect(chart.kinds[0]).toEqual({ kind: "overpaid", total: 2, ages: { under_1_day: 0, "1_to_7_days": 1, "7_to_30_days": 0, over_30_days: 1 } })
    expect(chart.kinds.map((row) => row.kind)).toEqual(["overpaid", "underpaid", "withdrawal_unknown"])
  })

  it("reads the whole queue in pages through the queue's own reader", async () => {
    const rows = Array.from({ length: 450 }, (_, i) => ({ id: `catt_${i}`, kind: "late_payment", status: "open", created_at: utc("2026-11-27T11:00:00Z"), evidence: {} }))
    const empty = async () => [[], 0] as [never[], number]
    const service = {
      listAndCountCryptoWithdrawals: empty,
      listAndCountCryptoExchanges: empty,
      listAndCountCryptoAttentions: async (_: unknown, config: { skip?: number; take?: number }) => [rows.slice(config.skip ?? 0, (config.skip ?? 0) + (config.take ?? 0)), rows.length],
    } as unknown as AttentionQueueService // A fake of the three list-and-count reads the queue makes.
    const chart = await readAttentionChart(service, now)
    expect(chart).toMatchObject({ total: 450, truncated: false })
    expect(chart.kinds).toEqual([{ kind: "late_payment", total: 450, ages: { under_1_day: 450, "1_to_7_days": 0, "7_to_30_days": 0, over_30_days: 0 } }])
  })
})
