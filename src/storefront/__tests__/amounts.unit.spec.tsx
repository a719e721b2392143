/**
 * @jest-environment jsdom
 */
import { render, screen } from "@testing-library/react"
import { TextEncoder } from "util"
import { CryptoPaymentPanel, CryptoPaymentSummary, readCryptoPaymentData, toCryptoPaymentState } from "../index"
import { parsePaymentStatus } from "../server"
import { statusWith } from "./fixtures"

beforeAll(() => {
  Object.assign(globalThis, { TextEncoder })
})

/**
 * One LTC invoice whose commission the shopper pays (spec §2.1): `amount` 1.11023351 is the cart
 * total in the coin, `invoice_total_sum` 1.12133585 what the shopper sends, commission included.
 */
const session = {
  psys_cid: "LTC",
  currency: "LTC",
  amount: "1.11023351",
  invoice_total_sum: "1.12133585",
  commission_amount: "0.01110234",
  received_amount: "1.12133585",
  status: "completed",
  tx_urls: [],
}

describe("one amount for one order: the amount to send, commission included", () => {
  it("reads the order payment's amount as invoice_total_sum, with the commission apart", () => {
    const read = readCryptoPaymentData(session)
    expect(read.amount).toBe("1.12133585")
    expect(read.commissionAmount).toBe("0.01110234")
  })

  it("the order page shows 1.12133585 LTC as the amount, the same as received, and says the commission is included", () => {
    const { container } = render(<CryptoPaymentSummary data={session} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-amount dd")?.textContent).toBe("1.12133585 LTC")
    expect(container.querySelector(".mpc-summary-paid-text")?.textContent).toBe("Paid 1.12133585 of 1.12133585 LTC")
    expect(container.textContent).not.toContain("1.11023351")
    expect(screen.getByText("Includes the gateway's commission of 0.01110234 LTC.")).toBeTruthy()
  })

  it("no commission line when the shop pays it (invoice_total_sum equals amount)", () => {
    const { container } = render(<CryptoPaymentSummary data={{ ...session, amount: "1.12133585", commission_amount: null }} locale="en-US" />)
    expect(container.querySelector(".mpc-summary-amount dd")?.textContent).toBe("1.12133585 LTC")
    expect(container.querySelector(".mpc-summary-commission")).toBeNull()
  })

  it("the status route's commission_amount is an amount the kit checks and keeps", () => {
    const status = statusWith({ psys_cid: "LTC", currency: "LTC", amount: "1.12133585", pending_amount: "1.12133585", commission_amount: "0.01110234" })
    expect(toCryptoPaymentState(parsePaymentStatus(status)).commissionAmount).toBe("0.01110234")
    expect(() => parsePaymentStatus(statusWith({ commission_amount: 0.01 as unknown as string }))).toThrow(/invoice\.commission_amount/)
  })

  it("the payment panel asks for 1.12133585 LTC and lists the commission under it", () => {
    const status = statusWith({ psys_cid: "LTC", currency: "LTC", amount: "1.12133585", pending_amount: "1.12133585", commission_amount: "0.01110234" })
    const { container } = render(<CryptoPaymentPanel status={status} locale="en-US" />)
    expect(container.querySelector(".mpc-panel-amount .mpc-panel-value")?.textContent).toBe("1.12133585 LTC")
    expect(container.querySelector(".mpc-panel-breakdown-commission")?.textContent).toBe("Gateway commission0.01110234 LTC")
  })

  it("the order page shows the status route's invoice the same way (no second figure)", () => {
    const { container } = render(
      <CryptoPaymentSummary data={{ psys_cid: "LTC", currency: "LTC", amount: "1.12133585", expected_amount: "1.12133585", commission_amount: "0.01110234", received_amount: "1.12133585" }} locale="en-US" />
    )
    expect(container.querySelector(".mpc-summary-amount dd")?.textContent).toBe("1.12133585 LTC")
    expect(screen.getByText("Includes the gateway's commission of 0.01110234 LTC.")).toBeTruthy()
  })

  it("every built-in language has the commission sentence", () => {
    const { cryptoLabelsByLanguage } = jest.requireActual<typeof import("../index")>("../index")
    for (const labels of Object.values(cryptoLabelsByLanguage)) {
      expect(labels.commissionIncluded).toContain("{amount}")
    }
  })
})
