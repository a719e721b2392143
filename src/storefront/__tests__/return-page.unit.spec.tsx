/**
 * @jest-environment jsdom
 */
import { render, screen } from "@testing-library/react"
import { CryptoPaymentResult } from "../index"
import { statusWith } from "./fixtures"

describe("the return page for an invoice nothing was sent to yet", () => {
  it("says nothing was received (not \"being confirmed\"), and offers the invoice and the checkout", () => {
    const status = statusWith({ status: "new", white_label: false, address: null, pending_amount: null, invoice_url: "https://gateway.example/invoice/txn_1" })
    const onDecision = jest.fn()
    const { container } = render(<CryptoPaymentResult status={status} retryHref="/de/checkout?step=payment" onDecision={onDecision} />)
    expect(screen.getByRole("status").textContent).toBe(
      "We have not received your payment yet. If you have sent it, this page updates by itself; otherwise go back and pay the invoice."
    )
    expect(screen.getByRole("status").textContent).not.toContain("being confirmed")
    expect(container.querySelector(".mpc-result")?.getAttribute("data-status")).toBe("not_received")
    expect(screen.getByRole("link", { name: "Go back to the invoice" }).getAttribute("href")).toBe("https://gateway.example/invoice/txn_1")
    expect(screen.getByRole("link", { name: "Back to checkout" }).getAttribute("href")).toBe("/de/checkout?step=payment")
    expect(onDecision).toHaveBeenCalledWith({ kind: "not_received" })
  })

  it("money seen and not confirmed yet is still \"being confirmed\"", () => {
    render(<CryptoPaymentResult status={statusWith({ status: "pending", pending_amount: "0" })} />)
    expect(screen.getByRole("status").textContent).toBe("Your payment is being confirmed. This page updates by itself.")
  })
})
