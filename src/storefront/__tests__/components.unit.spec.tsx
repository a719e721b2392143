/**
 * @jest-environment jsdom
 */
import { act, fireEvent, render, screen } from "@testing-library/react"
import { CryptoCoinPicker, CryptoPayButton, CryptoPaymentPanel, CryptoPaymentResult, CryptoPaymentSummary, type CryptoCurrencyOption } from "../index"
import { TextEncoder } from "util"
import { statusWith } from "./fixtures"

// Browsers have TextEncoder (qrcode encodes with it); jest's jsdom environment does not expose Node's.
beforeAll(() => {
  Object.assign(globalThis, { TextEncoder })
})

beforeEach(() => {
  jest.useFakeTimers({ now: new Date("2030-01-01T00:00:00.000Z") })
})
afterEach(() => {
  jest.useRealTimers()
})

const coins: CryptoCurrencyOption[] = [
  { psys_cid: "USDT_ETH", currency: "USDT", name: "Tether", icon: null, amount: "49.900000", rate: "1", maintenance: false, default: false },
  { psys_cid: "USDT_TRX", currency: "USDT", name: "Tether", icon: null, amount: "49.900000", rate: "1", maintenance: false, default: true },
  { psys_cid: "BTC", currency: "BTC", name: "Bitcoin", icon: null, amount: "0.00123400", rate: "40000", maintenance: true, default: false },
]

describe("CryptoCoinPicker", () => {
  it("lists each coin as a radio named with its network and what the shopper sends in that coin", () => {
    render(<CryptoCoinPicker currencies={coins} value={null} onChange={() => undefined} locale="en-US" />)
    expect(screen.getByRole("group", { name: "Choose a coin" })).toBeTruthy()
    expect(screen.getByRole("radio", { name: /USDT\s*Ethereum \(ERC-20\)\s*You send 49\.900000 USDT/ })).toBeTruthy()
    expect(screen.getByRole("radio", { name: /USDT\s*TRON \(TRC-20\)/ })).toBeTruthy()
  })

  it("says in words that a coin is unavailable and disables it", () => {
    render(<CryptoCoinPicker currencies={coins} value={null} onChange={() => undefined} />)
    const btc = screen.getByRole("radio", { name: /BTC.*\(unavailable\)/ }) as HTMLInputElement
    expect(btc.disabled).toBe(true)
  })

  it("reports the chosen coin id", () => {
    const onChange = jest.fn()
    render(<CryptoCoinPicker currencies={coins} value="USDT_ETH" onChange={onChange} />)
    fireEvent.click(screen.getByRole("radio", { name: /TRON/ }))
    expect(onChange).toHaveBeenCalledWith("USDT_TRX")
  })

  it("shows a coin whose minimum the total does not reach as disabled, with its minimum", () => {
    const unavailable = [{ psys_cid: "BTC", currency: "BTC", name: "Bitcoin", icon: null, reason: "below_minimum" as const, minimum: "0.0001", minimum_fiat: "5.92" }]
    render(<CryptoCoinPicker currencies={coins.slice(0, 2)} unavailable={unavailable} value={null} onChange={() => undefined} total={{ amount: "1", currencyCode: "EUR" }} locale="en-US" />)
    const btc = screen.getByRole("radio", { name: /BTC.*minimum is 0\.0001 BTC \(€5\.92\)/ }) as HTMLInputElement
    expect(btc.disabled).toBe(true)
  })

  it("says why no coin is offered for a zero total", () => {
    render(<CryptoCoinPicker currencies={[]} reason="zero_total" value={null} onChange={() => undefined} />)
    expect(screen.getByText("Nothing to pay in crypto: the total is zero.")).toBeTruthy()
  })

  it("shows the cart total in the shop's currency", () => {
    render(<CryptoCoinPicker currencies={coins} value={null} onChange={() => undefined} total={{ amount: "49.9", currencyCode: "EUR" }} locale="de-DE" />)
    expect(screen.getByRole("group").querySelector(".mpc-coin-picker-total")?.textContent).toBe("49,90\u00a0€")
  })
})

describe("CryptoPayButton", () => {
  it("sends the shopper to the invoice page in the same tab", async () => {
    const navigate = jest.fn()
    render(<CryptoPayButton invoiceUrl="https://gateway.example/invoice/txn_1" navigate={navigate} />)
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Pay with crypto" }))
      await jest.advanceTimersByTimeAsync(0)
    })
    expect(navigate).toHaveBeenCalledWith("https://gateway.example/invoice/txn_1")
  })

  it("is disabled without an invoice URL", () => {
    render(<CryptoPayButton invoiceUrl={null} />)
    expect((screen.getByRole("button") as HTMLButtonElement).disabled).toBe(true)
  })
})

describe("CryptoPaymentPanel", () => {
  it("shows amount and address, each with a copy button, and a status region that is polite", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "new" })} locale="en-US" />)
    expect(screen.getByRole("status").getAttribute("aria-live")).toBe("polite")
    expect(screen.getByRole("status").textContent).toContain("Waiting for your payment")
    expect(screen.getByText("0.00123400 BTC")).toBeTruthy()
    expect(screen.getByText("bc1qexampleaddress")).toBeTruthy()
    expect(screen.getByRole("button", { name: "Copy amount" })).toBeTruthy()
    expect(screen.getByRole("button", { name: "Copy address" })).toBeTruthy()
  })

  it("carries the status in data-status", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith({ status: "pending", pending_amount: "0" })} />)
    expect(container.querySelector(".mpc-panel")?.getAttribute("data-status")).toBe("detected")
  })

  it("copies the raw amount, not the grouped display", async () => {
    const writeText = jest.fn(async () => undefined)
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } })
    render(<CryptoPaymentPanel status={statusWith({ status: "new", amount: "1234.5", pending_amount: "1234.5" })} locale="en-US" />)
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy amount" }))
      await jest.advanceTimersByTimeAsync(0)
    })
    expect(writeText).toHaveBeenCalledWith("1234.5")
    expect(screen.getAllByText("Copied").length).toBeGreaterThan(0)
  })

  it("draws a QR code of the BIP21 URI and a wallet link, each naming the amount the shopper sends and the network", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "new" })} locale="en-US" />)
    const qr = screen.getByRole("img", { name: "QR code: You send 0.00123400 BTC to bc1qexampleaddress on Bitcoin" })
    expect(qr.getAttribute("data-value")).toBe("bitcoin:bc1qexampleaddress?amount=0.001234")
    const link = screen.getByRole("link", { name: "Open in wallet: You send 0.00123400 BTC on Bitcoin" })
    expect(link.getAttribute("href")).toBe("bitcoin:bc1qexampleaddress?amount=0.001234")
  })

  it("names the amount as the coin picker does: You send", () => {
    const { container } = render(<CryptoPaymentPanel status={statusWith({ status: "new" })} locale="en-US" />)
    expect(container.querySelector(".mpc-panel-amount > dt")?.textContent).toBe("You send")
  })

  it("the picker, the panel and the wallet link take the amount's word from one label (youSend)", () => {
    const labels = { youSend: "To pay" }
    const picker = render(<CryptoCoinPicker currencies={[{ ...coins[0], psys_cid: "BTC", currency: "BTC", amount: "0.00123400" }]} value={null} onChange={() => undefined} labels={labels} locale="en-US" />)
    expect(picker.container.querySelector(".mpc-coin-picker-amount")?.textContent).toBe("To pay 0.00123400 BTC")
    picker.unmount()
    const { container } = render(<CryptoPaymentPanel status={statusWith({ status: "new" })} labels={labels} locale="en-US" />)
    expect(container.querySelector(".mpc-panel-amount > dt")?.textContent).toBe("To pay")
    expect(screen.getByRole("link").textContent).toBe("Open in wallet: To pay 0.00123400 BTC on Bitcoin")
  })

  it("has no wallet link for a TRON token: the QR code holds the address, and the panel says which network to send on", () => {
    const { container } = render(
      <CryptoPaymentPanel status={statusWith({ status: "new", psys_cid: "USDT_TRX", currency: "USDT", address: "TXyz", amount: "49.9", pending_amount: "49.9" })} />
    )
    expect(screen.queryByRole("link")).toBeNull()
    expect(screen.getByRole("img", { name: "QR code of the address TXyz on TRON (TRC-20)" }).getAttribute("data-value")).toBe("TXyz")
    expect(container.querySelector(".mpc-panel-no-link")?.textContent).toBe("Send on TRON (TRC-20): copy the address and the amount into your wallet.")
    expect(screen.getByText("Send only USDT · TRON (TRC-20) to this address.")).toBeTruthy()
  })

  it("links a USDC payment on Polygon with its chain id and names Polygon", () => {
    const address = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
    render(<CryptoPaymentPanel status={statusWith({ status: "new", psys_cid: "USDC_POLYGON", currency: "USDC", address, amount: "10.5", pending_amount: "10.5" })} locale="en-US" />)
    const link = screen.getByRole("link", { name: "Open in wallet: You send 10.5 USDC on Polygon" })
    expect(link.getAttribute("href")).toBe(`ethereum:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359@137/transfer?address=${address}&uint256=10500000`)
  })

  it("a native coin's link without the amount says so, and its QR code is described as the address", () => {
    const address = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
    const amount = "0.1234567890123456789"
    render(<CryptoPaymentPanel status={statusWith({ status: "new", psys_cid: "BNB", currency: "BNB", address, amount, pending_amount: amount })} locale="en-US" />)
    expect(screen.getByRole("link", { name: "Open in wallet: send on BNB Smart Chain" }).getAttribute("href")).toBe(`ethereum:${address}@56`)
    expect(screen.getByRole("img", { name: `QR code of the address ${address} on BNB Smart Chain` })).toBeTruthy()
  })

  it("names the network of every coin it knows, even one without a link, in German too", () => {
    const { container } = render(
      <CryptoPaymentPanel status={statusWith({ status: "new", psys_cid: "TRX", currency: "TRX", address: "TXyz", amount: "100", pending_amount: "100" })} locale="de-DE" />
    )
    expect(container.querySelector(".mpc-panel-amount > dt")?.textContent).toBe("Sie senden")
    expect(container.querySelector(".mpc-panel-no-link")?.textContent).toBe("Senden im Netzwerk TRON: Kopieren Sie Adresse und Betrag in Ihre Wallet.")
  })

  it("counts down to the expiry", async () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "new", expires_at: "2030-01-01T00:15:00.000Z" })} />)
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1000)
    })
    expect(screen.getByRole("timer").textContent).toBe("Expires in 14:59")
  })

  it("says payment detected with confirmations n of m", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 1, required: 3 } })} />)
    expect(screen.getByRole("status").textContent).toContain("Payment detected, waiting for confirmations")
    expect(screen.getByRole("status").textContent).toContain("1 of 3 confirmations")
  })

  it("on underpayment, says what is still due and offers that amount to copy", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "pending", pending_amount: "0.00023400" })} locale="en-US" />)
    expect(screen.getByRole("status").textContent).toContain("Still to pay: 0.00023400 BTC")
    expect(screen.getByText("0.00023400 BTC", { selector: ".mpc-panel-value" })).toBeTruthy()
  })

  it("on overpayment, notes the amount over", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "mismatch", overpaid_amount: "0.0001" })} locale="en-US" />)
    expect(screen.getByRole("status").textContent).toContain("You sent 0.0001 BTC more than the amount due.")
  })

  it("on expiry, hides the address and offers a new invoice", async () => {
    const onNewInvoice = jest.fn(async () => undefined)
    render(<CryptoPaymentPanel status={statusWith({ status: "expired" })} onNewInvoice={onNewInvoice} />)
    expect(screen.queryByText("bc1qexampleaddress")).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Get a new invoice" }))
      await jest.advanceTimersByTimeAsync(0)
    })
    expect(onNewInvoice).toHaveBeenCalledTimes(1)
  })

  it("shows the merchant's support contact", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "new" })} support={{ email: "help@shop.example" }} />)
    expect(screen.getByRole("link", { name: "help@shop.example" }).getAttribute("href")).toBe("mailto:help@shop.example")
  })

  it("speaks German with locale de", () => {
    render(<CryptoPaymentPanel status={statusWith({ status: "pending", pending_amount: "0", confirmations: { current: 2, required: 3 } })} locale="de-DE" />)
    expect(screen.getByRole("status").textContent).toContain("Zahlung erkannt, warten auf Bestätigungen")
    expect(screen.getByRole("status").textContent).toContain("2 von 3 Bestätigungen")
    expect(screen.getByRole("button", { name: "Adresse kopieren" })).toBeTruthy()
    expect(screen.getByText("0,00123400 BTC")).toBeTruthy()
  })

  it("takes label overrides and extra class names", () => {
    const { container } = render(
      <CryptoPaymentPanel status={statusWith({ status: "new" })} labels={{ statusNew: "Send your coins" }} classNames={{ root: "my-panel" }} />
    )
    expect(screen.getByRole("status").textContent).toContain("Send your coins")
    expect(container.querySelector(".mpc-panel.my-panel")).toBeTruthy()
  })

  it("reads the status at once when the countdown reaches the deadline", async () => {
    const fetchStatus = jest.fn(async () => statusWith({ status: "expired" }))
    render(
      <CryptoPaymentPanel status={statusWith({ status: "new", expires_at: "2030-01-01T00:00:05.000Z" })} fetchStatus={fetchStatus} pollIntervalsMs={[60000]} />
    )
    await act(async () => {
      await jest.advanceTimersByTimeAsync(5000)
    })
    expect(fetchStatus).toHaveBeenCalledTimes(1)
    expect(screen.getByRole("status").textContent).toContain("This invoice has expired")
  })

  it("polls with fetchStatus and announces the paid status", async () => {
    const fetchStatus = jest.fn(async () => statusWith({ status: "completed", pending_amount: "0" }))
    const onPaid = jest.fn()
    render(<CryptoPaymentPanel status={statusWith({ status: "new" })} fetchStatus={fetchStatus} onPaid={onPaid} pollIntervalsMs={[1000]} />)
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1000)
    })
    expect(screen.getByRole("status").textContent).toContain("Payment received")
    expect(onPaid).toHaveBeenCalledTimes(1)
  })
})

describe("CryptoPaymentResult", () => {
  it("links to the order once there is one", () => {
    render(<CryptoPaymentResult status={statusWith({ status: "completed" }, { order_id: "order_1" })} orderHref={(id) => `/de/order/${id}/confirmed`} />)
    expect(screen.getByRole("status").textContent).toBe("Thank you! Your order has been placed.")
    expect(screen.getByRole("link", { name: "View your order" }).getAttribute("href")).toBe("/de/order/order_1/confirmed")
  })

  it("says pending while the payment is not settled, in data-status too", () => {
    const { container } = render(<CryptoPaymentResult status={statusWith({ status: "pending", pending_amount: "0" })} />)
    expect(container.querySelector(".mpc-result")?.getAttribute("data-status")).toBe("pending")
    expect(screen.getByRole("status").getAttribute("aria-live")).toBe("polite")
  })

  it("offers the way back to checkout when the payment failed", () => {
    render(<CryptoPaymentResult status={statusWith({ status: "expired" })} retryHref="/checkout?step=payment" />)
    expect(screen.getByRole("status").textContent).toBe("The payment did not go through.")
    expect(screen.getByRole("link", { name: "Back to checkout" }).getAttribute("href")).toBe("/checkout?step=payment")
  })

  it("after a cart change, says so, offers the way back and says the earlier payment goes back to the shopper", () => {
    const status = statusWith(null, {
      cart_changed: true,
      abandoned_payments: [
        { order_number: "cart_1", attempt: 1, txn_id: "txn_old", status: "new", psys_cid: "LTC", currency: "LTC", network: "LTC", source_currency: "EUR", source_amount: "84.9", amount: "1.11", received_amount: "1.1", reason: "cart_changed", next_step: "refund" },
      ],
    })
    const onDecision = jest.fn()
    const { container } = render(<CryptoPaymentResult status={status} retryHref="/checkout?step=payment" onDecision={onDecision} />)
    expect(screen.getByRole("status").textContent).toBe("Your cart changed, so this invoice no longer applies. Please pay the new total.")
    expect(container.querySelector(".mpc-result-abandoned")?.textContent).toContain("the store will send it back to you")
    expect(onDecision).toHaveBeenCalledWith({ kind: "failed", reason: "cart_changed" })
    expect(screen.getByRole("link", { name: "Back to checkout" })).toBeTruthy()
  })

  it("tells the page its decision, e.g. to complete the cart", () => {
    const onDecision = jest.fn()
    render(<CryptoPaymentResult status={statusWith({ status: "completed" })} onDecision={onDecision} />)
    expect(onDecision).toHaveBeenCalledWith({ kind: "complete" })
  })
})

describe("CryptoPaymentSummary", () => {
  it("shows the coin with its network, the amount and the transaction links of an order payment", () => {
    render(
      <CryptoPaymentSummary
        data={{ psys_cid: "USDT_TRX", currency: "USDT", amount: "49.900000", received_amount: "49.900000", tx_urls: ["https://tronscan.org/#/transaction/abc"] }}
        locale="en-US"
      />
    )
    expect(screen.getByRole("heading", { name: "Crypto payment" })).toBeTruthy()
    expect(screen.getByText("USDT · TRON (TRC-20)")).toBeTruthy()
    expect(screen.getByText("49.900000 USDT")).toBeTruthy()
    expect(screen.getByText("Paid 49.900000 of 49.900000 USDT")).toBeTruthy()
    expect(screen.getByRole("link", { name: "Transaction 1" }).getAttribute("href")).toBe("https://tronscan.org/#/transaction/abc")
  })

  it("drops a link that is not http(s) and an amount that is a number", () => {
    render(<CryptoPaymentSummary data={{ psys_cid: "BTC", amount: 0.1, tx_urls: ["javascript:alert(1)"] }} />)
    expect(screen.queryByRole("link")).toBeNull()
    expect(screen.queryByText(/0\.1/)).toBeNull()
  })
})
