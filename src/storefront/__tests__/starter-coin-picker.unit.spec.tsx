/**
 * @jest-environment jsdom
 */
import { act, fireEvent, render, screen } from "@testing-library/react"
import { useState } from "react"
import { CryptoCoinPicker, useCryptoCurrencies, type CryptoCurrenciesResponse } from "../index"

/**
 * The coin picker as docs/storefront.md step 3 wires it into the starters' payment step: rendered
 * whenever crypto is selected, fed by `useCryptoCurrencies`. A store the storefront cannot reach
 * (a wrong or missing backend URL) shows the shopper an error with a retry, never an empty step.
 */
const list: CryptoCurrenciesResponse = {
  cart_id: "cart_1",
  provider_id: "pp_crypto_crypto",
  currency_code: "eur",
  total: "49.9",
  currencies: [{ psys_cid: "LTC", currency: "LTC", name: "Litecoin", icon: null, amount: "0.65", rate: "76.47", maintenance: false, default: true }],
  unavailable: [],
  reason: null,
}

/** The payment step's crypto part, as the guide writes it. */
function PaymentStep({ fetchCurrencies, locale }: { fetchCurrencies: () => Promise<CryptoCurrenciesResponse>; locale?: string }) {
  const [coin, setCoin] = useState<string | null>(null)
  const coins = useCryptoCurrencies({ fetchCurrencies, enabled: true })
  return (
    <CryptoCoinPicker
      currencies={coins.currencies}
      unavailable={coins.unavailable}
      reason={coins.reason}
      loading={coins.loading}
      error={coins.error}
      onRetry={coins.reload}
      value={coin}
      onChange={setCoin}
      total={coins.data ? { amount: coins.data.total, currencyCode: coins.data.currency_code } : null}
      locale={locale}
    />
  )
}

const settle = async (): Promise<void> => {
  await act(async () => {
    await Promise.resolve()
  })
}

/** What a server action rejects with in production: Next.js hides the message. */
const unreachable = () => Promise.reject(new Error("An error occurred in the Server Components render."))

describe("the coin picker in the starters' payment step", () => {
  it("says the coins are loading before they arrive, not an empty list", () => {
    render(<PaymentStep fetchCurrencies={() => new Promise(() => undefined)} />)
    expect(screen.getByRole("status").textContent).toBe("Loading the coins…")
    expect(screen.queryAllByRole("radio")).toHaveLength(0)
  })

  it("shows an error and a retry when the store cannot be reached", async () => {
    render(<PaymentStep fetchCurrencies={unreachable} />)
    await settle()
    expect(screen.getByRole("alert").textContent).toContain("The coins could not be loaded. Please try again in a moment.")
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy()
    expect(screen.getByRole("group", { name: "Choose a coin" }).getAttribute("data-state")).toBe("error")
  })

  it("never shows the error's own text to the shopper", async () => {
    render(<PaymentStep fetchCurrencies={() => Promise.reject(new Error("Could not reach the Medusa backend at http://localhost:9000"))} />)
    await settle()
    expect(screen.getByRole("alert").textContent).not.toContain("localhost")
  })

  it("the retry reads the coins again and shows them", async () => {
    const fetchCurrencies = jest.fn<Promise<CryptoCurrenciesResponse>, []>().mockImplementationOnce(unreachable).mockResolvedValue(list)
    render(<PaymentStep fetchCurrencies={fetchCurrencies} />)
    await settle()
    fireEvent.click(screen.getByRole("button", { name: "Try again" }))
    await settle()
    expect(fetchCurrencies).toHaveBeenCalledTimes(2)
    expect(screen.queryByRole("alert")).toBeNull()
    expect(screen.getAllByRole("radio")).toHaveLength(1)
  })

  it("speaks German with locale de", async () => {
    render(<PaymentStep fetchCurrencies={unreachable} locale="de-DE" />)
    await settle()
    expect(screen.getByRole("alert").textContent).toContain("Die Kryptowährungen konnten nicht geladen werden.")
    expect(screen.getByRole("button", { name: "Erneut versuchen" })).toBeTruthy()
  })

  it("says so when the store offers no coin at all", async () => {
    render(<PaymentStep fetchCurrencies={async () => ({ ...list, currencies: [] })} />)
    await settle()
    expect(screen.getByText("No coin is available for this cart.")).toBeTruthy()
  })
})
