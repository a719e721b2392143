// The write of list-crypto-currencies (and of assess-crypto-invoice when it maps a coin code):
// listCurrencies stores the gateway's rate list in crypto_rate_cache. Run twice, the second run
// answers from the row the first stored and writes nothing (docs/workflows.md).
import { Decimal } from "decimal.js"
import { listCurrencies, type RateCacheStore } from "../../../core/payment/currency-cache"

type Row = Record<string, unknown>

it("reads the gateway and stores the list once; a second run within the cache's life reads the stored row and writes nothing", async () => {
  const rows: Row[] = []
  const writes: string[] = []
  let gatewayReads = 0
  const store = {
    listCryptoRateCaches: async (filter: Row) => rows.filter((row) => row.fiat === filter.fiat),
    createCryptoRateCaches: async (row: Row) => {
      writes.push("create")
      rows.push({ id: "crc_1", ...row })
    },
    updateCryptoRateCaches: async () => void writes.push("update"),
  } as unknown as RateCacheStore
  const client = {
    currencies: {
      list: async () => {
        gatewayReads += 1
        return [{ cid: "BTC", currency: "BTC", name: "Bitcoin", fiat_rate: new Decimal("50000"), precision: 8, min_sum_in: new Decimal("0.0001"), hidden: false, maintenance: false }]
      },
    },
  } as unknown as Parameters<typeof listCurrencies>[0]
  const now = new Date()
  const first = await listCurrencies(client, store, "eur", now)
  const second = await listCurrencies(client, store, "eur", new Date(now.getTime() + 1000))
  expect(second).toEqual(first)
  expect(gatewayReads).toBe(1)
  expect(writes).toEqual(["create"])
  expect(rows).toHaveLength(1)
})
