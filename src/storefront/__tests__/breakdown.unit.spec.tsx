/**
 * @jest-environment jsdom
 */
import { render } from "@testing-library/react"
import { TextEncoder } from "util"
import { CryptoPaymentPanel, CryptoPaymentSummary, cryptoLabelsByLanguage, cryptoPaymentProgress, readCryptoPaymentData, toCryptoPaymentState } from "../index"
import { parsePaymentStatus } from "../server"
import { statusWith } from "./fixtures"

beforeAll(() => {
  Object.assign(globalThis, { TextEncoder })
})

/**
 * One LTC invoice for an 84.90 EUR cart at 76.47 EUR per LTC (spec §2.1 `source_rate`), whose
 * commission the shopper pays: 1.12133585 LTC to send, 0.01110234 LTC of it the commission.
 */
const ltc = {
  psys_cid: "LTC",
  currency: "LTC",
  source_amount: "84.9",
  source_currency: "EUR",
  source_rate: "76.47",
  amount: "1.12133585",
  pending_amount: "1.12133585",
  commission_amount: "0.01110234",
}

/** The breakdown's lines as [term, definition]. */
function breakdownOf(container: HTMLElement): string[][] {
  const list = container.querySelector(".mpc-panel-amount dl.mpc-panel-breakdown")
  if (list === null) return []
  return [...list.querySelectorAll(":scope > div")].map((row) => [row.querySelector("dt")?.textContent ?? "", row.querySelector("dd")?.textContent ?? ""])
}

describe("the panel explains the one amount before paying", () => {
  it("order total, rate and commission under the amount, which stays the one figure to send", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith(ltc)} locale="en-US" />)
    expect(container.querySelector(".mpc-panel-amount > dd > .mpc-panel-value")?.textContent).toBe("1.12133585 LTC")
    expect(breakdownOf(container)).toEqual([
      ["Order total", "84.90 EUR"],
      ["Rate", "1 LTC = 76.47 EUR"],
      ["Gateway commission", "0.01110234 LTC"],
    ])
    expect(container.querySelector("dl.mpc-panel-breakdown")?.getAttribute("aria-label")).toBe("How the amount is made up")
    // The commission is said once, in the breakdown.
    expect(container.textContent).not.toContain("Includes the gateway's commission")
  })

  it("no commission line when none is added", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith({ ...ltc, amount: "1.11023351", pending_amount: "1.11023351", commission_amount: null })} locale="en-US" />)
    expect(breakdownOf(container)).toEqual([
      ["Order total", "84.90 EUR"],
      ["Rate", "1 LTC = 76.47 EUR"],
    ])
  })

  it("no rate line when the store does not know the invoice's rate: none is derived from the rounded figures", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith({ ...ltc, source_rate: null })} locale="en-US" />)
    expect(breakdownOf(container)).toEqual([
      ["Order total", "84.90 EUR"],
      ["Gateway commission", "0.01110234 LTC"],
    ])
    expect(container.textContent).not.toMatch(/1 LTC =/)
  })

  it("no rate and no commission: the order total alone", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith({ ...ltc, source_rate: undefined, commission_amount: "0" })} locale="en-US" />)
    expect(breakdownOf(container)).toEqual([["Order total", "84.90 EUR"]])
  })

  it("keeps every digit of the rate the gateway sent", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith({ ...ltc, source_rate: "76.470412345678901234" })} locale="en-US" />)
    expect(breakdownOf(container)[1]).toEqual(["Rate", "1 LTC = 76.470412345678901234 EUR"])
  })

  it("in German", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith(ltc)} locale="de-DE" />)
    expect(breakdownOf(container)).toEqual([
      ["Bestellsumme", "84,90 EUR"],
      ["Kurs", "1 LTC = 76,47 EUR"],
      ["Gebühr des Zahlungsanbieters", "0,01110234 LTC"],
    ])
  })

  it("not beside a remainder still due: the breakdown explains the whole amount", () => {
    const status = statusWith({ ...ltc, received_amount: "0.5", pending_amount: "0.62133585" })
    expect(status.invoice?.shopper_status).toBe("underpaid")
    const { container } = render(<CryptoPaymentPanel status={status} locale="en-US" />)
    expect(container.querySelector(".mpc-panel-amount > dd > .mpc-panel-value")?.textContent).toBe("0.62133585 LTC")
    expect(container.querySelector(".mpc-panel-breakdown")).toBeNull()
  })
})

describe("the status route's source_rate", () => {
  it("is a decimal string the kit checks and keeps", () => {
    const state = toCryptoPaymentState(parsePaymentStatus(statusWith(ltc)))
    expect(state).toMatchObject({ sourceAmount: "84.9", sourceCurrency: "EUR", sourceRate: "76.47" })
  })

  it("is rejected, naming the field, when it is not a decimal string", () => {
    expect(() => parsePaymentStatus(statusWith({ ...ltc, source_rate: "76,47" }))).toThrow(/invoice\.source_rate must be a decimal string/)
    expect(() => parsePaymentStatus(statusWith({ ...ltc, source_rate: 76.47 as unknown as string }))).toThrow(/invoice\.source_rate/)
  })

  it("is absent from the state when zero or missing", () => {
    expect(toCryptoPaymentState(parsePaymentStatus(statusWith({ ...ltc, source_rate: "0" }))).sourceRate).toBeNull()
    expect(toCryptoPaymentState(parsePaymentStatus(statusWith({ ...ltc, source_rate: null }))).sourceRate).toBeNull()
  })
})

/** The order payment's data: the provider's white-label session data after the payment was read. */
const order = { psys_cid: "LTC", currency: "LTC", amount: "1.11023351", invoice_total_sum: "1.12133585", commission_amount: "0.01110234" }

describe("the order page: Paid X of Y, in the coin, the commission included in Y", () => {
  it("paid exactly", () => {
    const { container } = render(<CryptoPaymentSummary data={{ ...order, received_amount: "1.12133585" }} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-paid-text")?.textContent).toBe("Paid 1.12133585 of 1.12133585 LTC")
    expect(container.querySelector(".mpc-summary-paid")?.getAttribute("data-progress")).toBe("paid")
    expect(container.querySelector(".mpc-summary-due, .mpc-summary-overpaid, .mpc-summary-shortfall")).toBeNull()
  })

  it("underpaid: what was paid, and what is still due (Y − X, exact)", () => {
    const { container } = render(<CryptoPaymentSummary data={{ ...order, received_amount: "0.5" }} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-paid-text")?.textContent).toBe("Paid 0.5 of 1.12133585 LTC")
    expect(container.querySelector(".mpc-summary-due")?.textContent).toBe("Still to pay: 0.62133585 LTC")
  })

  it("underpaid within the store's tolerance (status route underpaid_amount): accepted, nothing due", () => {
    const invoice = { ...ltc, received_amount: "1.12133485", underpaid_amount: "0.000001" }
    const { container } = render(<CryptoPaymentSummary data={invoice} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-paid-text")?.textContent).toBe("Paid 1.12133485 of 1.12133585 LTC")
    expect(container.querySelector(".mpc-summary-shortfall")?.textContent).toBe("0.000001 LTC less than the amount due; the store accepted the payment.")
    expect(container.querySelector(".mpc-summary-due")).toBeNull()
  })

  it("overpaid says so, with the store's overpaid_amount", () => {
    const { container } = render(<CryptoPaymentSummary data={{ ...order, received_amount: "1.2", overpaid_amount: "0.07866415" }} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-paid-text")?.textContent).toBe("Paid 1.2 of 1.12133585 LTC")
    expect(container.querySelector(".mpc-summary-overpaid")?.textContent).toBe(
      "You sent 0.07866415 LTC more than the amount due. The store will contact you about it."
    )
  })

  it("overpaid without a recorded excess: X − Y, exact", () => {
    expect(cryptoPaymentProgress(readCryptoPaymentData({ ...order, received_amount: "1.2" }))).toEqual({
      kind: "overpaid",
      received: "1.2",
      amount: "1.12133585",
      excess: "0.07866415",
    })
  })

  it("keeps every digit of a long amount", () => {
    const progress = cryptoPaymentProgress(readCryptoPaymentData({ currency: "ETH", amount: "123456789.123456789012345678", received_amount: "1" }))
    expect(progress).toEqual({ kind: "underpaid", received: "1", amount: "123456789.123456789012345678", due: "123456788.123456789012345678" })
  })

  it("says nothing about payment while nothing is known received, or when a figure is a number", () => {
    const { container } = render(<CryptoPaymentSummary data={order} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-paid")).toBeNull()
    expect(cryptoPaymentProgress(readCryptoPaymentData({ ...order, received_amount: 0.5 }))).toBeNull()
  })

  it("in German", () => {
    const { container } = render(<CryptoPaymentSummary data={{ ...order, received_amount: "0.5" }} locale="de-DE" />)
    expect(container.querySelector(".mpc-summary-paid-text")?.textContent).toBe("Bezahlt: 0,5 von 1,12133585 LTC")
    expect(container.querySelector(".mpc-summary-due")?.textContent).toBe("Noch zu zahlen: 0,62133585 LTC")
  })
})

describe("labels", () => {
  it("every built-in language has the breakdown and the paid-of words, with their placeholders", () => {
    for (const labels of Object.values(cryptoLabelsByLanguage)) {
      for (const key of ["breakdown", "orderTotal", "rate", "gatewayCommission"] as const) expect(labels[key].trim()).not.toBe("")
      expect(labels.rateValue).toContain("{coin}")
      expect(labels.rateValue).toContain("{rate}")
      expect(labels.paidOf).toContain("{received}")
      expect(labels.paidOf).toContain("{amount}")
      expect(labels.shortfallAccepted).toContain("{amount}")
    }
  })
})
