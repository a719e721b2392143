/**
 * @jest-environment jsdom
 */
import { act, renderHook } from "@testing-library/react"
import { useCopyToClipboard, useCountdown, useCryptoCurrencies, useCryptoPaymentStatus } from "../index"
import type { CryptoCurrenciesResponse, CryptoPaymentStatusResponse } from "../types"
import { statusWith } from "./fixtures"

let hidden = false
beforeAll(() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden })
})

beforeEach(() => {
  hidden = false
  jest.useFakeTimers({ now: new Date("2030-01-01T00:00:00.000Z") })
})

afterEach(() => {
  jest.useRealTimers()
})

function setHidden(value: boolean): void {
  hidden = value
  document.dispatchEvent(new Event("visibilitychange"))
}

/** A fetcher answering from a list; the last answer repeats. */
function fetcherOf(...answers: CryptoPaymentStatusResponse[]): jest.Mock<Promise<CryptoPaymentStatusResponse>, []> {
  let index = 0
  return jest.fn(async () => answers[Math.min(index++, answers.length - 1)] as CryptoPaymentStatusResponse)
}

const advance = async (ms: number): Promise<void> => {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms)
  })
}

describe("useCryptoPaymentStatus", () => {
  it("polls at once, then after 2, 3, 5, 8, 13, 20 and 20 seconds while nothing changes", async () => {
    const fetchStatus = fetcherOf(statusWith({ status: "new" }))
    renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    expect(fetchStatus).toHaveBeenCalledTimes(1)
    const delays = [2000, 3000, 5000, 8000, 13000, 20000, 20000]
    for (const [index, delay] of delays.entries()) {
      await advance(delay - 1)
      expect(fetchStatus).toHaveBeenCalledTimes(index + 1)
      await advance(1)
      expect(fetchStatus).toHaveBeenCalledTimes(index + 2)
    }
  })

  it("goes back to the first delay when the status changes", async () => {
    const fetchStatus = fetcherOf(
      statusWith({ status: "new" }),
      statusWith({ status: "new" }),
      statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 0, required: 2 } })
    )
    renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    await advance(2000)
    await advance(3000)
    expect(fetchStatus).toHaveBeenCalledTimes(3)
    // The third answer changed the status: the next poll comes after 2 s, not 5 s.
    await advance(2000)
    expect(fetchStatus).toHaveBeenCalledTimes(4)
  })

  it("does not poll while the tab is hidden, and polls as soon as it is visible again", async () => {
    const fetchStatus = fetcherOf(statusWith({ status: "new" }))
    renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    act(() => setHidden(true))
    await advance(60000)
    expect(fetchStatus).toHaveBeenCalledTimes(1)
    act(() => setHidden(false))
    await advance(0)
    expect(fetchStatus).toHaveBeenCalledTimes(2)
  })

  it("stops polling on a final status", async () => {
    const fetchStatus = fetcherOf(statusWith({ status: "completed", pending_amount: "0" }))
    const { result } = renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    expect(result.current.state).toMatchObject({ status: "paid", final: true })
    await advance(120000)
    expect(fetchStatus).toHaveBeenCalledTimes(1)
  })

  it("fires each callback once, however many polls repeat the status", async () => {
    const onDetected = jest.fn()
    const onPaid = jest.fn()
    const fetchStatus = fetcherOf(
      statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 0, required: 2 } }),
      statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 0, required: 2 } }),
      statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 1, required: 2 } }),
      statusWith({ status: "completed", pending_amount: "0" })
    )
    renderHook(() => useCryptoPaymentStatus({ fetchStatus, onDetected, onPaid, intervalsMs: [1000] }))
    await advance(0)
    await advance(1000)
    await advance(1000)
    await advance(1000)
    await advance(5000)
    expect(fetchStatus).toHaveBeenCalledTimes(4)
    expect(onDetected).toHaveBeenCalledTimes(1)
    expect(onPaid).toHaveBeenCalledTimes(1)
    expect(onPaid.mock.calls[0]?.[0]).toMatchObject({ status: "paid" })
  })

  it("fires onExpired once and onFailed for a canceled invoice", async () => {
    const onExpired = jest.fn()
    const onFailed = jest.fn()
    const expired = renderHook(() => useCryptoPaymentStatus({ fetchStatus: fetcherOf(statusWith({ status: "expired" })), onExpired, onFailed }))
    await advance(0)
    expired.unmount()
    renderHook(() => useCryptoPaymentStatus({ fetchStatus: fetcherOf(statusWith({ status: "cancelled" })), onExpired, onFailed }))
    await advance(0)
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(onFailed).toHaveBeenCalledTimes(1)
  })

  it("resumes polling on refresh after a final status, e.g. for a new invoice", async () => {
    const fetchStatus = fetcherOf(statusWith({ status: "expired" }), statusWith({ status: "new", txn_id: "txn_2" }))
    const { result } = renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    expect(result.current.state.status).toBe("expired")
    act(() => result.current.refresh())
    await advance(0)
    expect(result.current.state.status).toBe("new")
    await advance(2000)
    expect(fetchStatus).toHaveBeenCalledTimes(3)
  })

  it("keeps polling after a failed read and reports the error", async () => {
    const fetchStatus = jest
      .fn<Promise<CryptoPaymentStatusResponse>, []>()
      .mockRejectedValueOnce(new Error("store unreachable"))
      .mockResolvedValue(statusWith({ status: "new" }))
    const { result } = renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    expect(result.current.error?.message).toBe("store unreachable")
    await advance(3000)
    expect(fetchStatus).toHaveBeenCalledTimes(2)
    expect(result.current.error).toBeNull()
  })

  it("starts from an initial status without reading it again at once", async () => {
    const fetchStatus = fetcherOf(statusWith({ status: "new" }))
    const { result } = renderHook(() => useCryptoPaymentStatus({ fetchStatus, initialStatus: statusWith({ status: "new" }) }))
    expect(result.current.state.status).toBe("new")
    await advance(0)
    expect(fetchStatus).toHaveBeenCalledTimes(0)
    await advance(2000)
    expect(fetchStatus).toHaveBeenCalledTimes(1)
  })

  it("stops polling on unmount", async () => {
    const fetchStatus = fetcherOf(statusWith({ status: "new" }))
    const { unmount } = renderHook(() => useCryptoPaymentStatus({ fetchStatus }))
    await advance(0)
    unmount()
    await advance(60000)
    expect(fetchStatus).toHaveBeenCalledTimes(1)
  })
})

describe("useCountdown", () => {
  it("counts down every second to the deadline and then says expired", async () => {
    const { result } = renderHook(() => useCountdown("2030-01-01T00:01:05.000Z"))
    await advance(0)
    expect(result.current).toMatchObject({ text: "1:05", expired: false })
    await advance(1000)
    expect(result.current.text).toBe("1:04")
    await advance(64000)
    expect(result.current).toMatchObject({ text: "0:00", expired: true, remainingMs: 0 })
  })

  it("shows hours past an hour", async () => {
    const { result } = renderHook(() => useCountdown(new Date("2030-01-01T01:02:03.000Z")))
    await advance(0)
    expect(result.current.text).toBe("1:02:03")
  })

  it("has no value without a deadline", async () => {
    const { result } = renderHook(() => useCountdown(null))
    await advance(0)
    expect(result.current).toEqual({ remainingMs: null, expired: false, text: "" })
  })
})

describe("useCopyToClipboard", () => {
  const writeText = jest.fn<Promise<void>, [string]>()
  beforeEach(() => {
    writeText.mockReset().mockResolvedValue(undefined)
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } })
  })

  it("copies the exact text and flags its key for two seconds", async () => {
    const { result } = renderHook(() => useCopyToClipboard())
    await act(async () => {
      await result.current.copy("0.00123400", "amount")
    })
    expect(writeText).toHaveBeenCalledWith("0.00123400")
    expect(result.current.copiedKey).toBe("amount")
    await advance(2000)
    expect(result.current.copiedKey).toBeNull()
  })

  it("reports a failure by key when the clipboard refuses and no fallback works", async () => {
    writeText.mockRejectedValue(new Error("denied"))
    const { result } = renderHook(() => useCopyToClipboard())
    let ok = true
    await act(async () => {
      ok = await result.current.copy("bc1q", "address")
    })
    expect(ok).toBe(false)
    expect(result.current).toMatchObject({ copiedKey: null, failedKey: "address" })
  })
})

describe("useCryptoCurrencies", () => {
  const list: CryptoCurrenciesResponse = {
    cart_id: "cart_1",
    provider_id: "pp_crypto_crypto",
    currency_code: "eur",
    total: "49.9",
    currencies: [
      { psys_cid: "BTC", currency: "BTC", name: "Bitcoin", icon: null, amount: "0.0012", rate: "41000", maintenance: true, default: true },
      { psys_cid: "USDT_TRX", currency: "USDT", name: "Tether", icon: null, amount: "49.9", rate: "1", maintenance: false, default: false },
    ],
    unavailable: [],
    reason: null,
  }

  it("reads the coins once and picks the default coin that is not under maintenance", async () => {
    const fetchCurrencies = jest.fn(async () => list)
    const { result } = renderHook(() => useCryptoCurrencies({ fetchCurrencies }))
    await advance(0)
    expect(fetchCurrencies).toHaveBeenCalledTimes(1)
    expect(result.current.currencies).toHaveLength(2)
    expect(result.current.defaultCoin).toBe("USDT_TRX")
  })

  it("reads again on reload", async () => {
    const fetchCurrencies = jest.fn(async () => list)
    const { result } = renderHook(() => useCryptoCurrencies({ fetchCurrencies, initialData: list }))
    await advance(0)
    expect(fetchCurrencies).toHaveBeenCalledTimes(0)
    act(() => result.current.reload())
    await advance(0)
    expect(fetchCurrencies).toHaveBeenCalledTimes(1)
  })
})
