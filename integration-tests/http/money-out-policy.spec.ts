import path from "node:path"
import type { INotificationModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosResponse } from "axios"
import { resolveCryptoModule } from "../../src/modules/crypto"
import { Decimal } from "decimal.js"
import {
  adminHeaders,
  ethAddress,
  minutesLater,
  newKey,
  orderOverpaidInCrypto,
  orderPaidInCrypto,
  requestFailure,
  storefrontHeaders,
  useAdminAuth,
  useTestGateway,
  withdrawal,
  type AdminAuth,
} from "./helpers"

jest.setTimeout(300_000)

/**
 * The deployment's cooling-off in this file (the product's is 24 hours): short enough that moving the
 * clock past it keeps the test admins' tokens valid (they live a day), never waited for.
 */
const COOLING_OFF_MINUTES = 60

// Declared before the runner's own beforeAll, which boots the app with the environment set here.
const gateway = useTestGateway({ whiteLabel: true, env: { MPC_TEST_COOLING_OFF_MINUTES: String(COOLING_OFF_MINUTES) } })

/** ETH cash_outs and mass_cash_outs to `address` the gateway (the sandbox) holds, read through its own API. */
async function operationsTo(address: string): Promise<number> {
  let count = 0
  for (const type of ["cash_out", "mass_cash_out"] as const) {
    for await (const operation of gateway.client().operations.iterate({ type, currency: "ETH", limit: 50 })) {
      if (operation.wallet_hash === address || (operation.sendmany !== undefined && operation.sendmany !== null && address in operation.sendmany)) count += 1
    }
  }
  return count
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app", ".server"),
  testSuite: ({ api, getContainer }) => {
    const auth = useAdminAuth(getContainer)
    const save = async (address: string, as: AdminAuth = auth, psysCid = "ETH") => (await api.post("/admin/crypto/money-out/addresses", { psys_cid: psysCid, address, label: "Cold wallet" }, as)).data
    const recordedUnder = async (key: string) => (await resolveCryptoModule(getContainer()).listCryptoWithdrawals({ idempotency_key: key })).length
    const audits = async (action: string) => resolveCryptoModule(getContainer()).listCryptoMoneyOutAudits({ action: action as "withdrawal_refused" })
    const feed = async (resourceId: string) => getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION).listNotifications({ channel: "feed", resource_id: resourceId })

    describe("the address book and its cooling-off", () => {
      it("refuses a new address during its cooling-off, naming the rule and when it becomes usable, sends nothing, and accepts it after", async () => {
        const address = ethAddress()
        const { address: entry, created } = await save(address)
        expect(created).toBe(true)
        const usableFrom = new Date(entry.usable_from)
        expect(usableFrom.getTime() - new Date(entry.added_at).getTime()).toBe(COOLING_OFF_MINUTES * 60_000)

        const body = withdrawal(address)
        const { status, message } = await requestFailure(api.post("/admin/crypto/withdrawals", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("rule: cooling-off")
        expect(message).toContain(`becomes usable at ${usableFrom.toISOString()}`)
        expect(await recordedUnder(body.idempotency_key)).toBe(0)
        expect(await operationsTo(address)).toBe(0)
        const [refusal] = await audits("withdrawal_refused")
        expect(refusal).toMatchObject({ rule: "cooling_off", actor: expect.stringMatching(/^user_/) })

        const sent = await minutesLater<AxiosResponse>(COOLING_OFF_MINUTES + 1, () => api.post("/admin/crypto/withdrawals", withdrawal(address), auth))
        expect(sent.status).toBe(200)
        expect(sent.data.withdrawal.status).toBe("completed")
        expect(await operationsTo(address)).toBe(1)
        const [allowed] = await audits("withdrawal_allowed")
        expect(allowed).toMatchObject({ subject_id: sent.data.withdrawal.id, address_ids: [entry.id] })
      })

      it("refuses an address that is not in the book, and names the mass payout line that is not", async () => {
        const saved = ethAddress()
        await save(saved)
        const single = await requestFailure(api.post("/admin/crypto/withdrawals", withdrawal(ethAddress()), auth))
        expect(single.status).toBe(400)
        expect(single.message).toContain("rule: address book")

        const stranger = ethAddress()
        const mass = { idempotency_key: newKey(), psys_cid: "ETH", fee_plan: "normal", recipients: [{ address: saved, amount: "0.01" }, { address: stranger, amount: "0.01" }] }
        const refused = await minutesLater(COOLING_OFF_MINUTES + 1, () => requestFailure(api.post("/admin/crypto/withdrawals", mass, auth)))
        expect(refused.message).toContain(`(rule: address book): ${stranger} is not in the address book for ETH`)
        expect(refused.message).toContain("(field: recipients[1].address)")
        expect(await operationsTo(saved)).toBe(0)
      })

      it("pays an exchange out only to a saved address of the coin it buys", async () => {
        const body = { idempotency_key: newKey(), from_currency: "ETH", to_currency: "BTC", from_amount: "0.01", to_address: ethAddress(), confirmed: true }
        const { status, message } = await requestFailure(api.post("/admin/crypto/exchanges", body, auth))
        expect(status).toBe(400)
        expect(message).toContain("rule: address book")
        expect(message).toContain("(field: to_address)")
        expect(await resolveCryptoModule(getContainer()).listCryptoExchanges({ idempotency_key: body.idempotency_key })).toHaveLength(0)
      })

      it("tells every admin once when an address is added; saving it again changes nothing", async () => {
        const address = ethAddress()
        const first = await save(address)
        const again = await api.post("/admin/crypto/money-out/addresses", { psys_cid: "ETH", address }, auth)
        expect(again.status).toBe(200)
        expect(again.data).toMatchObject({ created: false, address: { id: first.address.id, usable_from: first.address.usable_from } })
        const notices = await feed(first.address.id)
        expect(notices).toHaveLength(1)
        expect(notices[0]).toMatchObject({ to: "", template: "admin-ui", data: { title: "Crypto: address added to the address book" } })
        expect(String(notices[0].data?.description)).toContain(address)
      })

      it("removes an address at once: a withdrawal to it is refused again", async () => {
        const address = ethAddress()
        const { address: entry } = await save(address)
        const removed = await api.delete(`/admin/crypto/money-out/addresses/${entry.id}`, auth)
        expect(removed.data.address.removed_at).not.toBeNull()
        const refused = await minutesLater(COOLING_OFF_MINUTES + 1, () => requestFailure(api.post("/admin/crypto/withdrawals", withdrawal(address), auth)))
        expect(refused.message).toContain("rule: address book")
        const listed = await api.get("/admin/crypto/money-out/addresses", auth)
        expect(listed.data.addresses.map((row: { id: string }) => row.id)).not.toContain(entry.id)
      })
    })

    describe("approval above a threshold", () => {
      /** The policy: withdrawals worth more than 50 (store currency) wait for another admin; an address saved and past its cooling-off. */
      const approvalSetUp = async () => {
        await api.post("/admin/crypto/money-out/policy", { approval_threshold: "50" }, auth)
        const address = ethAddress()
        await save(address)
        return { address, approver: await adminHeaders(getContainer()) }
      }

      it("waits above the threshold until another admin approves, the one who asked cannot, and two approvals at once send it once", async () => {
        const { address, approver } = await approvalSetUp()
        await minutesLater(COOLING_OFF_MINUTES + 1, async () => {
          // 0.01 ETH at the sandbox's rate is about 31 USD: at or below 50, sent at once.
          const small = await api.post("/admin/crypto/withdrawals", withdrawal(address, "0.01"), auth)
          expect(small.data.withdrawal).toMatchObject({ status: "completed", value_currency: expect.any(String) })
          expect(Number(small.data.withdrawal.value_amount)).toBeLessThanOrEqual(50)

          const asked = await api.post("/admin/crypto/withdrawals", withdrawal(address, "0.02"), auth)
          expect(asked.status).toBe(202)
          const { id } = asked.data.withdrawal
          expect(asked.data.withdrawal.status).toBe("awaiting_approval")
          expect(Number(asked.data.withdrawal.value_amount)).toBeGreaterThan(50)
          expect(await operationsTo(address)).toBe(1)
          const toApprove = await api.get("/admin/crypto/withdrawals?status=awaiting_approval", auth)
          expect(toApprove.data.withdrawals.map((row: { id: string }) => row.id)).toEqual([id])

          const own = await requestFailure(api.post(`/admin/crypto/withdrawals/${id}/approve`, {}, auth))
          expect(own.status).toBe(400)
          expect(own.message).toContain("another admin must approve it")

          const answers = await Promise.all([0, 1].map(() => api.post(`/admin/crypto/withdrawals/${id}/approve`, {}, approver)))
          expect(answers.map((answer) => answer.data.replayed).sort()).toEqual([false, true])
          expect(answers.every((answer) => answer.data.withdrawal.id === id)).toBe(true)
          expect(await operationsTo(address)).toBe(2)
          const approved = (await api.get(`/admin/crypto/withdrawals/${id}`, auth)).data.withdrawal
          expect(approved).toMatchObject({ status: "completed", approved_by: expect.stringMatching(/^user_/) })
          expect(approved.approved_by).not.toBe(approved.requested_by)
        })
        const history = (await api.get("/admin/crypto/money-out/audit?limit=50", auth)).data.entries.map((entry: { action: string }) => entry.action)
        expect(history).toEqual(expect.arrayContaining(["withdrawal_awaiting_approval", "withdrawal_approved", "withdrawal_allowed", "address_added", "policy_changed"]))
        expect(history.filter((action: string) => action === "withdrawal_approved")).toHaveLength(1)
      })

      it("sends nothing for a rejected withdrawal, keeps who rejected it and why, and lets the same payment be asked again", async () => {
        const { address, approver } = await approvalSetUp()
        await minutesLater(COOLING_OFF_MINUTES + 1, async () => {
          const asked = await api.post("/admin/crypto/withdrawals", withdrawal(address, "0.02"), auth)
          const { id } = asked.data.withdrawal
          const noNote = await requestFailure(api.post(`/admin/crypto/withdrawals/${id}/reject`, {}, approver))
          expect(noNote.status).toBe(400)
          const rejected = await api.post(`/admin/crypto/withdrawals/${id}/reject`, { note: "not our cold wallet's usual amount" }, approver)
          expect(rejected.data.withdrawal).toMatchObject({ status: "rejected", resolution: "rejected", resolution_note: "not our cold wallet's usual amount", active_fingerprint: null })
          const late = await requestFailure(api.post(`/admin/crypto/withdrawals/${id}/approve`, {}, approver))
          expect(late.message).toContain("not waiting for approval")
          expect(await operationsTo(address)).toBe(0)
          const again = await api.post("/admin/crypto/withdrawals", withdrawal(address, "0.02"), auth)
          expect(again.data.withdrawal.status).toBe("awaiting_approval")
        })
        const [entry] = (await api.get("/admin/crypto/money-out/audit?limit=50", auth)).data.entries.filter((row: { action: string }) => row.action === "withdrawal_rejected")
        expect(entry.details).toMatchObject({ note: "not our cold wallet's usual amount" })
      })

      it("makes raising or removing the threshold wait the cooling-off", async () => {
        await api.post("/admin/crypto/money-out/policy", { approval_threshold: "50" }, auth)
        const raised = await api.post("/admin/crypto/money-out/policy", { approval_threshold: "1000" }, auth)
        expect(raised.data.changes[0]).toMatchObject({ field: "approval_threshold", loosens: true, change: { from: "50", to: "1000" } })
        expect(raised.data.policy.effective.approval_threshold).toBe("50")
        const removed = await api.post("/admin/crypto/money-out/policy", { approval_threshold: null }, auth)
        expect(removed.data.changes[0]).toMatchObject({ loosens: true, change: { from: "50", to: null } })
        expect(removed.data.policy.pending).toHaveLength(1)
      })
    })

    describe("daily limits", () => {
      it("refuses the withdrawal that would pass a coin's daily limit, naming what was spent, and sends nothing", async () => {
        // 0.01 ETH is worth about 31 USD (29 EUR) at the sandbox's rate: three fit in 100, a fourth does not.
        await api.post("/admin/crypto/money-out/policy", { daily_limits: { ETH: "100" } }, auth)
        const address = ethAddress()
        await save(address)
        await minutesLater(COOLING_OFF_MINUTES + 1, async () => {
          for (const amount of ["0.01", "0.0101", "0.0102"]) {
            expect((await api.post("/admin/crypto/withdrawals", withdrawal(address, amount), auth)).data.withdrawal.status).toBe("completed")
          }
          const body = withdrawal(address, "0.0103")
          const refused = await requestFailure(api.post("/admin/crypto/withdrawals", body, auth))
          expect(refused.status).toBe(400)
          expect(refused.message).toMatch(/\(rule: daily limit\): ETH withdrawals of the last 24 hours are worth [\d.]+ [A-Z]{3}; this one \([\d.]+ [A-Z]{3}\) would pass the daily limit of 100 [A-Z]{3}/)
          expect(await recordedUnder(body.idempotency_key)).toBe(0)
          expect(await operationsTo(address)).toBe(3)
        })
        expect(await audits("withdrawal_refused")).toEqual([expect.objectContaining({ rule: "daily_limit" })])
      })

      it("lets only one of two withdrawals asked at once through a limit only one fits", async () => {
        await api.post("/admin/crypto/money-out/policy", { daily_limits: { ETH: "50" } }, auth)
        const address = ethAddress()
        await save(address)
        const answers = await minutesLater(COOLING_OFF_MINUTES + 1, () =>
          Promise.allSettled(["0.01", "0.0101"].map((amount) => api.post("/admin/crypto/withdrawals", withdrawal(address, amount), auth)))
        )
        expect(answers.map((answer) => answer.status).sort()).toEqual(["fulfilled", "rejected"])
        const refused = answers.find((answer): answer is PromiseRejectedResult => answer.status === "rejected")
        expect(String(refused?.reason?.response?.data?.message)).toContain("rule: daily limit")
        expect(await operationsTo(address)).toBe(1)
      })

      it("makes raising or removing a limit wait the cooling-off", async () => {
        await api.post("/admin/crypto/money-out/policy", { daily_limits: { ETH: "100" } }, auth)
        const raised = await api.post("/admin/crypto/money-out/policy", { daily_limits: { ETH: "1000", BTC: "10" } }, auth)
        expect(raised.data.changes[0]).toMatchObject({ field: "daily_limits", loosens: true })
        expect(raised.data.policy.effective.daily_limits).toEqual({ ETH: "100" })
      })
    })

    describe("refunds to a shopper", () => {
      it("holds a claimed refund above the review threshold until an admin approves it, then sends it once", async () => {
        await api.post("/admin/crypto/money-out/policy", { claim_review_threshold: "0.5" }, auth)
        // About 1 EUR paid over: above the review threshold of 0.5.
        const { store, orderId, surplus } = await orderOverpaidInCrypto(gateway, getContainer(), api)
        const created = await api.post("/admin/crypto/refund-claims", { order_id: orderId, kind: "overpayment" }, auth)
        const token = new URL(created.data.link).searchParams.get("token") ?? ""
        const headers = { headers: storefrontHeaders(store) }

        const address = ethAddress()
        const claimed = await api.post("/store/crypto/refund-claims", { token, address }, headers)
        expect(claimed.data.claim).toMatchObject({ status: "sending", address })
        const [held] = (await api.get("/admin/crypto/withdrawals?status=awaiting_approval", auth)).data.withdrawals
        expect(held).toMatchObject({ purpose: "overpayment", order_id: orderId, recipients: [{ address, amount: surplus }] })
        expect(await operationsTo(address)).toBe(0)

        const approved = await api.post(`/admin/crypto/withdrawals/${held.id}/approve`, { note: "checked with the customer" }, auth)
        expect(approved.data.withdrawal.status).toBe("completed")
        const again = await api.post(`/admin/crypto/withdrawals/${held.id}/approve`, {}, auth)
        expect(again.data.replayed).toBe(true)
        expect(await operationsTo(address)).toBe(1)
        expect((await api.get(`/store/crypto/refund-claims?token=${token}`, headers)).data.claim).toMatchObject({ status: "sent", address })
      })

      it("refuses a refund whose coins would be more than the order received, and sends nothing", async () => {
        const orderId = await orderPaidInCrypto(gateway, getContainer(), api)
        const { quote } = (await api.post("/admin/crypto/refunds/quote", { order_id: orderId }, auth)).data
        // A rate 1.9% below the gateway's (within the confirmation's 2%): the whole amount is more coins than were paid.
        const rate = new Decimal(quote.rate).times("0.981").toDecimalPlaces(2).toFixed()
        const address = ethAddress()
        const body = { idempotency_key: newKey(), order_id: orderId, kind: "refund", amount: quote.refundable, rate, address }
        const refused = await requestFailure(api.post("/admin/crypto/refunds", body, auth))
        expect(refused.status).toBe(400)
        expect(refused.message).toContain("(rule: what the order received)")
        expect(await operationsTo(address)).toBe(0)
        const [row] = await resolveCryptoModule(getContainer()).listCryptoWithdrawals({ idempotency_key: body.idempotency_key })
        expect(row).toMatchObject({ status: "rejected", active_fingerprint: null })
        expect(await audits("refund_refused")).toEqual([expect.objectContaining({ rule: "refund_bound" })])
      })
    })

    describe("changing the policy", () => {
      it("makes a loosening wait the cooling-off and tells every admin, so the address book cannot be switched off and used at once", async () => {
        const { data } = await api.post("/admin/crypto/money-out/policy", { address_book: false }, auth)
        const [change] = data.changes
        expect(change).toMatchObject({ field: "address_book", loosens: true, change: { from: true, to: false } })
        expect(new Date(change.effective_at).getTime() - new Date(change.created_at).getTime()).toBeGreaterThanOrEqual(COOLING_OFF_MINUTES * 60_000 - 1000)
        expect(data.policy.effective.address_book).toBe(true)
        expect(data.policy.pending.map((row: { id: string }) => row.id)).toEqual([change.id])
        expect(await feed(change.id)).toHaveLength(1)

        const address = ethAddress()
        const refused = await requestFailure(api.post("/admin/crypto/withdrawals", withdrawal(address), auth))
        expect(refused.message).toContain("rule: address book")
        expect(await operationsTo(address)).toBe(0)

        const sent = await minutesLater<AxiosResponse>(COOLING_OFF_MINUTES + 1, async () => {
          expect((await api.get("/admin/crypto/money-out/policy", auth)).data.policy.effective.address_book).toBe(false)
          return api.post("/admin/crypto/withdrawals", withdrawal(address), auth)
        })
        expect(sent.data.withdrawal.status).toBe("completed")
      })

      it("takes a tightening at once, and it cancels a loosening still waiting", async () => {
        const loosen = await api.post("/admin/crypto/money-out/policy", { cooling_off_minutes: 10 }, auth)
        expect(loosen.data.changes[0]).toMatchObject({ loosens: true })
        const tighten = await api.post("/admin/crypto/money-out/policy", { cooling_off_minutes: 2880 }, auth)
        expect(tighten.data.changes[0]).toMatchObject({ field: "cooling_off_minutes", loosens: false, change: { from: COOLING_OFF_MINUTES, to: 2880 } })
        expect(tighten.data.policy.effective.cooling_off_minutes).toBe(2880)
        expect(tighten.data.policy.pending).toEqual([])
        const later = await minutesLater<AxiosResponse>(COOLING_OFF_MINUTES + 1, () => api.get("/admin/crypto/money-out/policy", auth))
        expect(later.data.policy.effective.cooling_off_minutes).toBe(2880)
        const { address } = await save(ethAddress())
        expect(new Date(address.usable_from).getTime() - new Date(address.added_at).getTime()).toBe(2880 * 60_000)
      })

      it("names the field of a wrong value", async () => {
        const { status, message } = await requestFailure(api.post("/admin/crypto/money-out/policy", { cooling_off_minutes: -5 }, auth))
        expect(status).toBe(400)
        expect(message).toMatch(/cooling_off_minutes.*at least/)
      })
    })
  },
})
