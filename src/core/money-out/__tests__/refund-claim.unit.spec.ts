import { claimTokenHash, isClaimToken, newClaimToken, refundClaimStatus, storeRefundClaimView, type ClaimRow } from "../refund-claim"

const now = new Date("2026-11-26T12:00:00.000Z")
const row = (over: Partial<ClaimRow> = {}): ClaimRow => ({
  id: "crcl_1",
  order_id: "order_1",
  status: "waiting",
  psys_cid: "USDT_TRX",
  currency: "USDT",
  amount: "12.5",
  expires_at: new Date("2026-11-27T12:00:00.000Z"),
  address: null,
  withdrawal_id: null,
  error: null,
  ...over,
})

describe("the claim link's token", () => {
  it("is 43 base64url characters of 32 random bytes, stored only as its SHA-256", () => {
    const { token, hash } = newClaimToken()
    expect(isClaimToken(token)).toBe(true)
    expect(hash).toBe(claimTokenHash(token))
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).not.toContain(token)
    expect(newClaimToken().token).not.toBe(token)
  })

  it.each(["", "short", "A".repeat(44), `${"A".repeat(42)}=`, 42])("refuses %p as a token", (value) => {
    expect(isClaimToken(value)).toBe(false)
  })
})

describe("what a claim shows", () => {
  it("waits until it expires, then is expired", () => {
    expect(refundClaimStatus(row(), undefined, now)).toBe("waiting")
    expect(refundClaimStatus(row({ expires_at: new Date(now.getTime() - 1) }), undefined, now)).toBe("expired")
  })

  it("revoked stays revoked", () => {
    expect(refundClaimStatus(row({ status: "revoked" }), undefined, now)).toBe("revoked")
  })

  it.each([
    ["requested", "sending"],
    ["sending", "sending"],
    ["completed", "sent"],
    ["outcome_unknown", "unknown"],
    ["not_found", "unknown"],
    ["error", "failed"],
    ["something new", "unknown"],
  ])("claimed, with its withdrawal %s, is %s", (status, shown) => {
    expect(refundClaimStatus(row({ status: "claimed", withdrawal_id: "cwd_1" }), { status }, now)).toBe(shown)
  })

  it("the storefront's view: amount with coin and network, the tx link once sent, a refusal only while waiting", () => {
    expect(storeRefundClaimView(row({ error: "refused" }), undefined, 12, now)).toMatchObject({ status: "waiting", amount: "12.5", psys_cid: "USDT_TRX", network: "TRX", order_display_id: 12, error: "refused" })
    const sent = storeRefundClaimView(row({ status: "claimed", address: "T9x", error: "old" }), { status: "completed", tx_urls: ["https://tronscan.test/tx/1"] }, 12, now)
    expect(sent).toMatchObject({ status: "sent", address: "T9x", tx_url: "https://tronscan.test/tx/1", error: null })
  })
})
