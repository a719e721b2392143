/**
 * @jest-environment jsdom
 */
import { act, fireEvent, render, screen } from "@testing-library/react"
import { CryptoRefundClaimForm, type CryptoRefundClaim } from "../index"
import { claimCryptoRefund, CryptoRefundClaimRefusedError, CryptoStoreError, getCryptoRefundClaim } from "../server"

const ETH_ADDRESS = "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe"
const TRON_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const TX_URL = "https://tronscan.org/#/transaction/5f0e1c"

function claimWith(fields: Partial<CryptoRefundClaim> = {}): CryptoRefundClaim {
  return {
    status: "waiting",
    amount: "12.500000",
    psys_cid: "USDT_TRX",
    currency: "USDT",
    network: "TRX",
    order_display_id: 1042,
    expires_at: "2030-01-08T12:00:00.000Z",
    address: null,
    tx_url: null,
    error: null,
    ...fields,
  }
}

const addressField = (): HTMLInputElement => screen.getByLabelText("Your USDT address on TRON (TRC-20)")

describe("CryptoRefundClaimForm", () => {
  it("shows the amount with its coin and network, and the order number", () => {
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={jest.fn()} locale="en-US" />)
    expect(screen.getByText("Your refund: 12.500000 USDT (TRON (TRC-20))")).toBeTruthy()
    expect(screen.getByText("Order #1042")).toBeTruthy()
  })

  it("offers an address field that browsers neither fill in nor correct", () => {
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={jest.fn()} />)
    const input = addressField()
    expect(input.getAttribute("autocomplete")).toBe("off")
    expect(input.getAttribute("spellcheck")).toBe("false")
  })

  it("says in words that an Ethereum address is not on TRON, once the shopper leaves the field", () => {
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={jest.fn()} />)
    const input = addressField()
    fireEvent.change(input, { target: { value: ETH_ADDRESS } })
    expect(screen.queryByText(/not on TRON/)).toBeNull()
    fireEvent.blur(input)
    const message = screen.getByText(
      "This is an address on Ethereum, not on TRON (TRC-20). Money sent to another network is lost: please enter your address on TRON (TRC-20)."
    )
    expect(input.getAttribute("aria-invalid")).toBe("true")
    expect(input.getAttribute("aria-describedby")?.split(" ")).toContain(message.id)
  })

  it("does not send an address of another network", () => {
    const onClaim = jest.fn()
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    fireEvent.change(addressField(), { target: { value: ETH_ADDRESS } })
    fireEvent.click(screen.getByRole("checkbox", { name: "I have checked that this address is mine and on TRON (TRC-20)" }))
    fireEvent.click(screen.getByRole("button", { name: "Send my refund to this address" }))
    expect(onClaim).not.toHaveBeenCalled()
    expect(screen.getByText(/This is an address on Ethereum/)).toBeTruthy()
  })

  it("asks for the confirmation before sending", () => {
    const onClaim = jest.fn()
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    fireEvent.change(addressField(), { target: { value: TRON_ADDRESS } })
    fireEvent.click(screen.getByRole("button", { name: "Send my refund to this address" }))
    expect(onClaim).not.toHaveBeenCalled()
    const checkbox = screen.getByRole("checkbox")
    expect(screen.getByText("Please confirm that you checked the address.").id).toBe(checkbox.getAttribute("aria-describedby"))
  })

  it("sends a valid address once, then says the refund was sent with the transaction link", async () => {
    let answer: (claim: CryptoRefundClaim) => void = () => undefined
    const onClaim = jest.fn(() => new Promise<CryptoRefundClaim>((resolve) => (answer = resolve)))
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    fireEvent.change(addressField(), { target: { value: ` ${TRON_ADDRESS} ` } })
    fireEvent.click(screen.getByRole("checkbox"))
    const button = screen.getByRole("button", { name: "Send my refund to this address" })
    fireEvent.click(button)
    fireEvent.click(button)
    expect(onClaim).toHaveBeenCalledTimes(1)
    expect(onClaim).toHaveBeenCalledWith(TRON_ADDRESS)
    expect((screen.getByRole("button", { name: "Sending your refund…" }) as HTMLButtonElement).disabled).toBe(true)
    await act(async () => {
      answer(claimWith({ status: "sent", address: TRON_ADDRESS, tx_url: TX_URL }))
    })
    const status = screen.getByRole("status")
    expect(status.textContent).toContain("Your refund has been sent.")
    expect(status.textContent).toContain(TRON_ADDRESS)
    expect(screen.getByRole("link", { name: "View the transaction" }).getAttribute("href")).toBe(TX_URL)
    expect(screen.queryByRole("textbox")).toBeNull()
  })

  it("keeps the answered claim when the page renders the same first claim again", async () => {
    const onClaim = jest.fn(async () => claimWith({ status: "sending", address: TRON_ADDRESS }))
    const { rerender } = render(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    fireEvent.change(addressField(), { target: { value: TRON_ADDRESS } })
    fireEvent.click(screen.getByRole("checkbox"))
    await act(async () => {
      fireEvent.click(screen.getByRole("button"))
    })
    rerender(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    expect(screen.getByRole("status").textContent).toContain("Your refund is on its way.")
    rerender(<CryptoRefundClaimForm claim={claimWith({ status: "sent", address: TRON_ADDRESS })} onClaim={onClaim} />)
    expect(screen.getByRole("status").textContent).toContain("Your refund has been sent.")
  })

  it("says the outcome is being checked when the gateway did not confirm", async () => {
    const onClaim = jest.fn(async () => claimWith({ status: "unknown", address: TRON_ADDRESS }))
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    fireEvent.change(addressField(), { target: { value: TRON_ADDRESS } })
    fireEvent.click(screen.getByRole("checkbox"))
    await act(async () => {
      fireEvent.click(screen.getByRole("button"))
    })
    expect(screen.getByRole("status").textContent).toContain("The shop checks it and never sends twice")
  })

  it("shows the store's refusal while the claim is still waiting", () => {
    render(<CryptoRefundClaimForm claim={claimWith({ error: "the gateway refused the address" })} onClaim={jest.fn()} />)
    const refusal = screen.getByRole("alert")
    expect(refusal.textContent).toBe("The address was not accepted (the gateway refused the address). Please check it or enter another one.")
    expect(addressField().getAttribute("aria-describedby")?.split(" ")).toContain(refusal.id)
  })

  it("says the claim could not be sent when the store is not reached, and lets the shopper try again", async () => {
    const onClaim = jest.fn(async (): Promise<CryptoRefundClaim> => {
      throw new Error("POST /store/crypto/refund-claims failed")
    })
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={onClaim} />)
    fireEvent.change(addressField(), { target: { value: TRON_ADDRESS } })
    fireEvent.click(screen.getByRole("checkbox"))
    await act(async () => {
      fireEvent.click(screen.getByRole("button"))
    })
    expect(screen.getByRole("status").textContent).toContain("Your refund could not be requested.")
    expect((screen.getByRole("button", { name: "Send my refund to this address" }) as HTMLButtonElement).disabled).toBe(false)
  })

  it("shows no address field for an expired link, and says to contact the shop", () => {
    render(<CryptoRefundClaimForm claim={claimWith({ status: "expired" })} onClaim={jest.fn()} />)
    expect(screen.queryByRole("textbox")).toBeNull()
    expect(screen.queryByRole("button")).toBeNull()
    expect(screen.getByRole("status").textContent).toContain("This refund link has expired and no longer works. Please contact the shop for a new one.")
  })

  it("says a withdrawn link no longer works", () => {
    render(<CryptoRefundClaimForm claim={claimWith({ status: "revoked" })} onClaim={jest.fn()} />)
    expect(screen.queryByRole("textbox")).toBeNull()
    expect(screen.getByRole("status").textContent).toContain("the shop withdrew it")
  })

  it("speaks German with locale de", () => {
    render(<CryptoRefundClaimForm claim={claimWith()} onClaim={jest.fn()} locale="de-DE" />)
    expect(screen.getByText("Ihre Erstattung: 12,500000 USDT (TRON (TRC-20))")).toBeTruthy()
    expect(screen.getByLabelText("Ihre USDT-Adresse im Netzwerk TRON (TRC-20)")).toBeTruthy()
  })
})

/** A fetch that answers one [status, body] and records the call. */
function answering(status: number, body: unknown): { fetch: typeof fetch; calls: Array<{ url: string; init: RequestInit | undefined }> } {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = []
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), init })
    // jsdom has no Response: the part of one that storeRequest reads.
    const response: Pick<Response, "ok" | "status" | "statusText" | "text"> = { ok: status >= 200 && status < 300, status, statusText: "", text: async () => JSON.stringify(body) }
    return response as Response
  }
  return { fetch: fetchImpl as typeof fetch, calls }
}

const connection = { baseUrl: "http://localhost:9000", publishableKey: "pk_test" }
const TOKEN = "q5yC0cS3Wb1o2x9Vb8nN6mH4jK7tR2eL0aPzUuIiOoY"

describe("getCryptoRefundClaim", () => {
  it("reads the claim of a token with the publishable key", async () => {
    const { fetch, calls } = answering(200, { claim: claimWith() })
    await expect(getCryptoRefundClaim({ ...connection, fetch, token: TOKEN })).resolves.toEqual(claimWith())
    expect(calls[0]?.url).toBe(`http://localhost:9000/store/crypto/refund-claims?token=${TOKEN}`)
    expect(calls[0]?.init?.headers).toEqual(expect.objectContaining({ "x-publishable-api-key": "pk_test" }))
  })

  it("answers null for a token the store does not know", async () => {
    const { fetch } = answering(404, { message: "Unknown refund link" })
    await expect(getCryptoRefundClaim({ ...connection, fetch, token: TOKEN })).resolves.toBeNull()
  })

  it("refuses an amount sent as a number, naming the field", async () => {
    const { fetch } = answering(200, { claim: { ...claimWith(), amount: 12.5 } })
    await expect(getCryptoRefundClaim({ ...connection, fetch, token: TOKEN })).rejects.toThrow("claim.amount must be a decimal string")
  })

  it("refuses a status the kit does not know, naming the field", async () => {
    const { fetch } = answering(200, { claim: { ...claimWith(), status: "pending" } })
    await expect(getCryptoRefundClaim({ ...connection, fetch, token: TOKEN })).rejects.toThrow("claim.status must be one of waiting, sending")
  })

  it("keeps the token out of the error of a failed read", async () => {
    const { fetch } = answering(500, { message: "Internal error" })
    const failure = getCryptoRefundClaim({ ...connection, fetch, token: TOKEN })
    await expect(failure).rejects.toBeInstanceOf(CryptoStoreError)
    await expect(failure).rejects.toThrow(/^(?!.*q5yC0cS3).*Internal error/)
  })
})

describe("claimCryptoRefund", () => {
  it("POSTs the token and the trimmed address and answers the claim", async () => {
    const sent = claimWith({ status: "sent", address: TRON_ADDRESS, tx_url: TX_URL })
    const { fetch, calls } = answering(200, { claim: sent })
    await expect(claimCryptoRefund({ ...connection, fetch, token: TOKEN, address: ` ${TRON_ADDRESS}\n` })).resolves.toEqual(sent)
    expect(calls[0]?.init?.method).toBe("POST")
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ token: TOKEN, address: TRON_ADDRESS })
  })

  it("throws the store's reason for a refusal", async () => {
    const { fetch } = answering(400, { message: "This refund link has expired" })
    const failure = claimCryptoRefund({ ...connection, fetch, token: TOKEN, address: TRON_ADDRESS })
    await expect(failure).rejects.toBeInstanceOf(CryptoRefundClaimRefusedError)
    await expect(failure).rejects.toMatchObject({ status: 400, reason: "This refund link has expired" })
  })
})
