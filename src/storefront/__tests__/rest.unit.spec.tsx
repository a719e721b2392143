/**
 * @jest-environment jsdom
 */
import { act, fireEvent, render, screen } from "@testing-library/react"
import { TextEncoder } from "util"
import { CryptoPaymentPanel, CryptoPaymentResult } from "../index"
import { resolveCryptoReturn } from "../lib/return"
import { toCryptoPaymentState } from "../lib/status"
import type { CryptoPaymentRest, CryptoTopUp } from "../types"
import { statusWith } from "./fixtures"

// Browsers have TextEncoder (qrcode encodes with it); jest's jsdom environment does not expose Node's.
beforeAll(() => {
  Object.assign(globalThis, { TextEncoder })
})

const topUp = (over: Partial<CryptoTopUp> = {}): CryptoTopUp => ({
  order_number: "cart_1-rest",
  txn_id: "INV-2",
  invoice_url: "https://gateway.test/invoice/INV-2",
  status: "new",
  shopper_status: "new",
  psys_cid: "LTC",
  currency: "LTC",
  network: "LTC",
  amount: "0.52133585",
  received_amount: null,
  address: "ltc1qrestaddress",
  qr_code: null,
  expires_at: "2030-01-01T01:00:00.000Z",
  ...over,
})

const rest = (over: Partial<CryptoPaymentRest> = {}): CryptoPaymentRest => ({ received_amount: "0.6", due_amount: "0.52133585", can_pay_rest: true, top_up: null, ...over })

/** The first invoice, ended short: expired with 0.6 of 1.12133585 LTC. */
const endedShort = (restOver: Partial<CryptoPaymentRest> = {}) =>
  statusWith({
    status: "expired",
    shopper_status: "expired",
    session_status: "canceled",
    psys_cid: "LTC",
    currency: "LTC",
    amount: "1.12133585",
    received_amount: "0.6",
    address: "ltc1qfirstaddress",
    source_amount: "84.90",
    source_currency: "EUR",
    rest: rest(restOver),
  })

describe("paying the rest: the kit's state", () => {
  it("an invoice that ended short with its rest payable is rest_due, not final, with what was received and what is due", () => {
    const state = toCryptoPaymentState(endedShort())
    expect(state).toMatchObject({ status: "rest_due", final: false, amountDue: "0.52133585", address: null })
    expect(state.rest).toEqual({ receivedAmount: "0.6", dueAmount: "0.52133585", canPayRest: true, topUpOpen: false })
  })

  it("with a top-up open, the payment fields are the top-up's", () => {
    const state = toCryptoPaymentState(endedShort({ can_pay_rest: false, top_up: topUp() }))
    expect(state).toMatchObject({ status: "rest_due", address: "ltc1qrestaddress", amount: "0.52133585", invoiceUrl: "https://gateway.test/invoice/INV-2", sourceAmount: null })
    expect(state.rest?.topUpOpen).toBe(true)
  })

  it("money seen on the top-up reads as detected", () => {
    expect(toCryptoPaymentState(endedShort({ can_pay_rest: false, top_up: topUp({ status: "pending", shopper_status: "detected" }) })).status).toBe("detected")
  })

  it("an ended short invoice whose rest can no longer be paid stays expired (the store returns the money)", () => {
    expect(toCryptoPaymentState(endedShort({ can_pay_rest: false })).status).toBe("expired")
    expect(toCryptoPaymentState(endedShort({ can_pay_rest: false, top_up: topUp({ status: "expired", shopper_status: "expired" }) })).status).toBe("expired")
  })

  it("a group paid is the invoice's own paid", () => {
    const paid = statusWith({ status: "expired", shopper_status: "paid", session_status: "captured", rest: rest({ can_pay_rest: false, due_amount: "0", top_up: topUp({ status: "completed", shopper_status: "paid" }) }) })
    expect(toCryptoPaymentState(paid).status).toBe("paid")
  })
})

describe("CryptoPaymentPanel: pay the rest", () => {
  it("says what was received and what is due, and offers the rest as one button", async () => {
    const onPayRest = jest.fn(async () => undefined)
    render(<CryptoPaymentPanel status={endedShort()} onPayRest={onPayRest} locale="en-US" />)
    expect(screen.getByRole("status").textContent).toContain("Your payment was short of the amount due")
    expect(screen.getByText(/Received 0\.6 LTC\. Still due: 0\.52133585 LTC\./)).toBeTruthy()
    const button = screen.getByRole("button", { name: "Pay the rest" })
    await act(async () => {
      fireEvent.click(button)
    })
    expect(onPayRest).toHaveBeenCalledTimes(1)
  })

  it("shows the top-up's amount and address once it is open, and no second button", () => {
    render(<CryptoPaymentPanel status={endedShort({ can_pay_rest: false, top_up: topUp() })} onPayRest={() => undefined} locale="en-US" />)
    expect(screen.queryByRole("button", { name: "Pay the rest" })).toBeNull()
    expect(screen.getByText("ltc1qrestaddress")).toBeTruthy()
    expect(document.querySelector(".mpc-panel-amount [data-amount]")?.getAttribute("data-amount")).toBe("0.52133585")
  })

  it("links a hosted top-up's payment page", () => {
    render(<CryptoPaymentPanel status={endedShort({ can_pay_rest: false, top_up: topUp({ address: null }) })} locale="de-DE" />)
    const link = screen.getByRole("link", { name: "Rest auf der Zahlungsseite bezahlen" }) as HTMLAnchorElement
    expect(link.href).toBe("https://gateway.test/invoice/INV-2")
  })
})

describe("the return page of an invoice that ended short", () => {
  it("decides rest_due, also when an order placed on detection waits for the rest", () => {
    expect(resolveCryptoReturn(endedShort())).toEqual({ kind: "rest_due" })
    expect(resolveCryptoReturn({ ...endedShort(), order_id: "order_1" })).toEqual({ kind: "rest_due" })
    // The rest can no longer be paid: the money goes back, as before.
    expect(resolveCryptoReturn(endedShort({ can_pay_rest: false }))).toEqual({ kind: "failed", reason: "underpaid" })
    expect(resolveCryptoReturn({ ...endedShort({ can_pay_rest: false }), order_id: "order_1" })).toEqual({ kind: "order", orderId: "order_1" })
  })

  it("offers Pay the rest, then links the rest's payment page (hosted)", async () => {
    const onPayRest = jest.fn(async () => undefined)
    const { rerender } = render(<CryptoPaymentResult status={endedShort()} onPayRest={onPayRest} locale="en-US" />)
    expect(screen.getByRole("status").textContent).toContain("Your payment was short of the amount due")
    expect(screen.getByText(/Received 0\.6 LTC\. Still due: 0\.52133585 LTC\./)).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Pay the rest" }))
    })
    expect(onPayRest).toHaveBeenCalledTimes(1)
    rerender(<CryptoPaymentResult status={endedShort({ can_pay_rest: false, top_up: topUp({ address: null }) })} onPayRest={onPayRest} locale="en-US" />)
    expect(screen.queryByRole("button", { name: "Pay the rest" })).toBeNull()
    expect((screen.getByRole("link", { name: "Pay the rest on the payment page" }) as HTMLAnchorElement).href).toBe("https://gateway.test/invoice/INV-2")
  })
})
