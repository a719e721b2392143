"use client"

import { useCallback, useEffect, useRef, useState } from "react"
import type { CryptoCurrenciesResponse, CryptoCurrencyOption, CryptoCurrencyUnavailable } from "../types.js"

export interface UseCryptoCurrenciesOptions {
  /** Reads `GET /store/crypto/currencies` (e.g. a server action calling `listCryptoCurrencies`). */
  fetchCurrencies: () => Promise<CryptoCurrenciesResponse>
  /** A list already read by the server: shown at once, not read again until `reload()`. */
  initialData?: CryptoCurrenciesResponse | null
  /** `false` skips the read (default `true`). */
  enabled?: boolean
}

export interface UseCryptoCurrenciesResult {
  data: CryptoCurrenciesResponse | null
  /** The coins the shopper may pick, or [] before they are read. */
  currencies: CryptoCurrencyOption[]
  /** Coins not offered for this cart and why (e.g. `below_minimum` with the minimum), or []. */
  unavailable: CryptoCurrencyUnavailable[]
  /** Why no coin is offered at all (`zero_total`), else null. */
  reason: string | null
  /** The coin the store marks as default, else the first one not under maintenance. */
  defaultCoin: string | null
  /** The last failed read, kept until a read succeeds; show it with a retry (`CryptoCoinPicker` `error` and `onRetry`). */
  error: Error | null
  /** True while a read runs, and while an enabled hook has neither data nor an error yet (never an empty step). */
  loading: boolean
  /** Reads the coins again, e.g. the retry button after an error. */
  reload: () => void
}

/** The coins a cart may be paid with, and the cart total in each. */
export function useCryptoCurrencies(options: UseCryptoCurrenciesOptions): UseCryptoCurrenciesResult {
  const fetchRef = useRef(options.fetchCurrencies)
  fetchRef.current = options.fetchCurrencies
  const enabled = options.enabled ?? true
  const [data, setData] = useState<CryptoCurrenciesResponse | null>(options.initialData ?? null)
  const [error, setError] = useState<Error | null>(null)
  const [loading, setLoading] = useState(false)
  const [generation, setGeneration] = useState(options.initialData ? 0 : 1)

  useEffect(() => {
    if (!enabled || generation === 0) return
    let current = true
    setLoading(true)
    fetchRef
      .current()
      .then((next) => {
        if (!current) return
        setData(next)
        setError(null)
      })
      .catch((caught: unknown) => {
        if (current) setError(caught instanceof Error ? caught : new Error(String(caught)))
      })
      .finally(() => {
        if (current) setLoading(false)
      })
    return () => {
      current = false
    }
  }, [enabled, generation])

  const reload = useCallback(() => setGeneration((value) => value + 1), [])
  const currencies = data?.currencies ?? []
  const defaultCoin =
    currencies.find((coin) => coin.default && !coin.maintenance)?.psys_cid ?? currencies.find((coin) => !coin.maintenance)?.psys_cid ?? null
  const unavailable = data?.unavailable ?? []
  const reason = data?.reason ?? null
  // Enabled with nothing read yet (the render before the first read starts) counts as loading too.
  const pending = loading || (enabled && data === null && error === null)
  return { data, currencies, unavailable, reason, defaultCoin, error, loading: pending, reload }
}
