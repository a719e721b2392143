import { countAttentionQueue, listAttentionQueue, type AttentionQueueService } from "../attention-queue"

type Row = Record<string, unknown> & { id: string; status: string; created_at: Date }

/** The module service's list-and-count over in-memory rows: filter on `status`, newest first, skip/take. */
function table(rows: Row[], dateField = "created_at") {
  return async (filters: { status?: string; active_fingerprint?: { $ne: null } }, config: { take?: number; skip?: number } = {}): Promise<[Row[], number]> => {
    const matching = rows
      .filter((row) => filters.status === undefined || row.status === filters.status)
      .filter((row) => filters.active_fingerprint === undefined || (row.active_fingerprint ?? null) !== null)
      .sort((a, b) => (b[dateField] as Date).getTime() - (a[dateField] as Date).getTime())
    const skip = config.skip ?? 0
    return [matching.slice(skip, config.take === undefined ? undefined : skip + config.take), matching.length]
  }
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 10, minute))

function service(counts: { unknownWithdrawals: number; unknownExchanges: number; openRows: number; resolvedRows?: number; extraWithdrawals?: Row[] }): AttentionQueueService {
  const withdrawals: Row[] = Array.from({ length: counts.unknownWithdrawals }, (_, i) => ({
    id: `cwd_${i}`,
    status: "outcome_unknown",
    purpose: i % 2 === 0 ? "withdrawal" : "refund",
    provider_id: "pp_crypto_crypto",
    psys_cid: "BTC",
    total_amount: "0.001",
    recipients: [],
    requested_at: at(i),
    created_at: at(i),
  }))
  const completed: Row = { ...withdrawals[0], id: "cwd_done", status: "completed", requested_at: at(59), created_at: at(59) }
  const exchanges: Row[] = Array.from({ length: counts.unknownExchanges }, (_, i) => ({
    id: `cex_${i}`,
    status: "outcome_unknown",
    provider_id: "pp_crypto_crypto",
    from_currency: "LTC",
    to_currency: "BTC",
    from_amount: "1.5",
    to_amount: null,
    requested_at: at(i),
    created_at: at(i),
  }))
  const attentions: Row[] = [
    ...Array.from({ length: counts.openRows }, (_, i) => ({
      id: `catt_${i}`,
      kind: "overpaid",
      status: "open",
      provider_id: "pp_crypto_crypto",
      subject_id: `inv_${i}`,
      psys_cid: "BTC",
      amount: "0.0001",
      evidence: {},
      created_at: at(i),
    })),
    ...Array.from({ length: counts.resolvedRows ?? 0 }, (_, i) => ({ id: `catt_r${i}`, kind: "overpaid", status: "resolved", created_at: at(30 + i) })),
  ]
  return {
    listAndCountCryptoAttentions: table(attentions),
    listAndCountCryptoWithdrawals: table([...(withdrawals.length === 0 ? [] : [...withdrawals, completed]), ...(counts.extraWithdrawals ?? [])], "requested_at"),
    listAndCountCryptoExchanges: table(exchanges, "requested_at"),
  } as unknown as AttentionQueueService // a fake of the three list-and-count methods the queue reads
}

describe("the Needs-attention queue's pages", () => {
  it("shows each derived item (outcome unknown) on one page only, then the stored items", async () => {
    const queue = service({ unknownWithdrawals: 3, unknownExchanges: 1, openRows: 6 })
    const pages = await Promise.all([0, 4, 8].map((offset) => listAttentionQueue(queue, { limit: 4, offset })))
    const ids = pages.map((page) => page.items.map((item) => item.id))
    expect(ids).toEqual([
      ["cwd_2", "cwd_1", "cwd_0", "cex_0"],
      ["catt_5", "catt_4", "catt_3", "catt_2"],
      ["catt_1", "catt_0"],
    ])
    expect(pages.map((page) => page.count)).toEqual([10, 10, 10])
    expect(new Set(ids.flat()).size).toBe(10)
  })

  it("starts the stored items mid-page after the derived ones", async () => {
    const queue = service({ unknownWithdrawals: 2, unknownExchanges: 0, openRows: 5 })
    const page = await listAttentionQueue(queue, { limit: 3, offset: 0 })
    expect(page.items.map((item) => [item.id, item.kind, item.source])).toEqual([
      ["cwd_1", "refund_unknown", "withdrawal"],
      ["cwd_0", "withdrawal_unknown", "withdrawal"],
      ["catt_4", "overpaid", "attention"],
    ])
    const next = await listAttentionQueue(queue, { limit: 3, offset: 3 })
    expect(next.items.map((item) => item.id)).toEqual(["catt_3", "catt_2", "catt_1"])
  })

  it("a page past the end is empty and still counts everything", async () => {
    const queue = service({ unknownWithdrawals: 1, unknownExchanges: 1, openRows: 1, resolvedRows: 4 })
    expect(await listAttentionQueue(queue, { limit: 10, offset: 3 })).toEqual({ items: [], count: 3 })
  })

  it("the badge counts open rows and unknown outcomes, never resolved or completed ones", async () => {
    expect(await countAttentionQueue(service({ unknownWithdrawals: 2, unknownExchanges: 3, openRows: 4, resolvedRows: 2 }))).toBe(9)
  })

  it("keeps the amount and coin of a derived exchange item", async () => {
    const page = await listAttentionQueue(service({ unknownWithdrawals: 0, unknownExchanges: 1, openRows: 0 }), { limit: 5, offset: 0 })
    expect(page.items[0]).toMatchObject({ kind: "exchange_unknown", psys_cid: "LTC", amount: "1.5", status: "open" })
  })

  it("lists a withdrawal and a refund that failed at the gateway while their guard is kept, and not one the merchant released", async () => {
    const failed = (id: string, purpose: string, guard: string | null, minute: number): Row => ({
      id,
      status: "error",
      active_fingerprint: guard,
      purpose,
      provider_id: "pp_crypto_crypto",
      psys_cid: "ETH",
      total_amount: "0.02",
      recipients: [],
      operation_id: `op_${id}`,
      gateway_status: "error",
      requested_at: at(minute),
      created_at: at(minute),
    })
    const queue = service({
      unknownWithdrawals: 1,
      unknownExchanges: 0,
      openRows: 1,
      extraWithdrawals: [failed("cwd_f1", "withdrawal", "fp1", 40), failed("cwd_f2", "overpayment", "fp2", 41), failed("cwd_released", "withdrawal", null, 42)],
    })
    const page = await listAttentionQueue(queue, { limit: 10, offset: 0 })
    expect(page.items.map((item) => [item.id, item.kind])).toEqual([
      ["cwd_0", "withdrawal_unknown"],
      ["cwd_f2", "refund_failed"],
      ["cwd_f1", "withdrawal_failed"],
      ["catt_0", "overpaid"],
    ])
    expect(page.items[2]).toMatchObject({ amount: "0.02", psys_cid: "ETH", evidence: expect.objectContaining({ operation_id: "op_cwd_f1", gateway_status: "error" }) })
    expect(await countAttentionQueue(queue)).toBe(4)
  })
})
