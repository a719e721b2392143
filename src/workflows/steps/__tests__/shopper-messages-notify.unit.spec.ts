import type { CreateNotificationDTO } from "@medusajs/framework/types"
import { parseCryptoOptions } from "../../../core/config/options"
import { notifyCryptoShopper, type NotifyCryptoShopperInput, type NotifyShopperDeps, type ShopperNotifications } from "../notify-crypto-shopper"

type Row = Record<string, unknown>

const PROVIDER = "pp_crypto_crypto"

/**
 * The Notification Module as Medusa 2.21.2 runs it: `createNotifications` lists the idempotency
 * key first and creates and sends nothing when a notification holds it (unless that one failed);
 * two creations of one key at the same moment meet the key's unique index, and the second throws.
 */
function notificationModule() {
  const rows: Array<CreateNotificationDTO & { status: string }> = []
  let concurrent: string | undefined
  const module: ShopperNotifications = {
    createNotifications: async (data) => {
      const existing = rows.find((row) => row.idempotency_key === data.idempotency_key)
      if (existing !== undefined && existing.status !== "failure") return undefined
      if (concurrent === data.idempotency_key) {
        concurrent = undefined
        rows.push({ ...data, status: "success" })
        throw new Error('duplicate key value violates unique constraint "IDX_notification_idempotency_key_unique"')
      }
      const row = { ...data, status: "success" }
      rows.push(row)
      return { id: `noti_${rows.length}`, ...row }
    },
    listNotifications: async (filters) => rows.filter((row) => row.idempotency_key === filters.idempotency_key),
  }
  return { module, rows, raceOn: (key: string) => void (concurrent = key) }
}

function world(options: Row = {}) {
  const invoices = new Map<string, Row>()
  const attentions = new Map<string, Row>()
  const withdrawals: Row[] = []
  const invoice = (row: Row) => {
    invoices.set(String(row.id), {
      provider_id: PROVIDER,
      order_number: "cart_1",
      cart_id: "cart_1",
      order_id: null,
      topup_of: null,
      superseded_by: null,
      session_status: "pending",
      gateway_status: "new",
      psys_cid: "LTC",
      currency: "LTC",
      expected_amount: "0.334",
      received_amount: null,
      txn_id: "INV-1",
      rest_until: null,
      ...row,
    })
  }
  const medusa = { cartEmail: "shopper@example.com" as string | null, order: { id: "order_1", display_id: 1042, email: "buyer@example.com", status: "pending" } as Row, orderOfCart: null as string | null }
  const notifications = notificationModule()
  const infos: string[] = []
  const fakeModule = {
    retrieveCryptoInvoice: async (id: string) => ({ ...invoices.get(id) }),
    listCryptoInvoices: async (filters: Row) => [...invoices.values()].filter((row) => row.topup_of === filters.topup_of),
    retrieveCryptoAttention: async (id: string) => ({ ...attentions.get(id) }),
    listCryptoAttentions: async (filters: Row) => [...attentions.values()].filter((row) => row.kind === filters.kind && row.subject_id === filters.subject_id && row.status === filters.status),
    listCryptoWithdrawals: async (filters: { invoice_id: string[] }) => withdrawals.filter((row) => filters.invoice_id.includes(String(row.invoice_id))),
  }
  const parsed = parseCryptoOptions({ apiKey: "k", baseUrl: "http://gateway.test", storefrontUrl: "https://shop.test", ...options })
  const deps: NotifyShopperDeps = {
    // Our module's generated methods have wide overloads; the fake answers the calls this step makes.
    cryptoModule: fakeModule as unknown as NotifyShopperDeps["cryptoModule"],
    query: {
      graph: async ({ entity }) => {
        if (entity === "cart") return { data: [{ id: "cart_1", email: medusa.cartEmail }] }
        if (entity === "order") return { data: [medusa.order] }
        if (entity === "order_cart") return { data: medusa.orderOfCart === null ? [] : [{ order_id: medusa.orderOfCart }] }
        return { data: [] }
      },
    },
    optionsOf: () => parsed,
    notifications: notifications.module,
    logger: { info: (message: string) => void infos.push(message) },
    now: () => new Date("2026-11-26T20:00:00.000Z"),
  }
  return { invoice, attentions, withdrawals, medusa, notifications, infos, deps }
}

const instructions: NotifyCryptoShopperInput = {
  kind: "paymentInstructions",
  provider_id: PROVIDER,
  invoice: { id: "cinv_1", provider_id: PROVIDER, cart_id: "cart_1", psys_cid: "LTC", currency: "LTC", amount: "0.334", invoice_url: "https://gateway.test/i/1", address: "ltc1qexample", expires_at: "2026-11-26T21:00:00.000Z" },
}
const receivedInput: NotifyCryptoShopperInput = { kind: "paymentReceived", provider_id: PROVIDER, invoice_id: "cinv_1" }
const underpaidInput: NotifyCryptoShopperInput = { kind: "underpaid", provider_id: PROVIDER, attention_id: "catt_1" }

/** An invoice that ended short beyond the tolerance, its underpaid item open (as the sync leaves it). */
function endedShort(w: ReturnType<typeof world>, item: Row = {}) {
  w.invoice({ id: "cinv_1", session_status: "canceled", gateway_status: "expired", received_amount: "0.1", refund_due_amount: "0.1" })
  w.attentions.set("catt_1", { id: "catt_1", kind: "underpaid", subject_id: "cinv_1", status: "open", evidence: { within_tolerance: false }, ...item })
}

describe("notifyCryptoShopper", () => {
  it("sends the payment instructions of an invoice once, even when the event comes twice", async () => {
    const w = world()
    w.invoice({ id: "cinv_1" })
    const first = await notifyCryptoShopper(instructions, w.deps)
    const second = await notifyCryptoShopper(instructions, w.deps)
    expect([first.outcome, second.outcome]).toEqual(["sent", "already_sent"])
    expect(w.notifications.rows).toHaveLength(1)
    expect(w.notifications.rows[0]).toMatchObject({
      to: "shopper@example.com",
      channel: "email",
      template: "crypto-payment-instructions",
      idempotency_key: "medusa-payment-crypto:paymentInstructions:cinv_1",
      trigger_type: "crypto.invoice.created",
      resource_id: "cart_1",
      data: { amount_with_coin: "0.334 LTC", address: "ltc1qexample", invoice_url: "https://gateway.test/i/1", return_url: "https://shop.test/checkout/crypto/return?cart_id=cart_1" },
      content: { subject: "Send 0.334 LTC to complete your order" },
    })
  })

  it("sends once when two instances create the same message at the same moment (the key's unique index refuses the second)", async () => {
    const w = world()
    w.invoice({ id: "cinv_1" })
    w.notifications.raceOn("medusa-payment-crypto:paymentInstructions:cinv_1")
    await expect(notifyCryptoShopper(instructions, w.deps)).resolves.toMatchObject({ outcome: "already_sent" })
    expect(w.notifications.rows).toHaveLength(1)
  })

  it("sends no instructions for an invoice a newer one replaced, or one already being paid", async () => {
    const w = world()
    w.invoice({ id: "cinv_1", superseded_by: "cinv_2" })
    expect((await notifyCryptoShopper(instructions, w.deps)).outcome).toBe("not_due")
    w.invoice({ id: "cinv_1", gateway_status: "pending" })
    expect((await notifyCryptoShopper(instructions, w.deps)).outcome).toBe("not_due")
    expect(w.notifications.rows).toEqual([])
  })

  it("sends nothing to a cart without an e-mail", async () => {
    const w = world()
    w.invoice({ id: "cinv_1" })
    w.medusa.cartEmail = null
    expect((await notifyCryptoShopper(instructions, w.deps)).outcome).toBe("no_email")
    expect(w.notifications.rows).toEqual([])
  })

  it("sends payment received once, to the order's e-mail, with what the invoice and its top-up received", async () => {
    const w = world()
    w.invoice({ id: "cinv_1", session_status: "captured", gateway_status: "expired", order_id: "order_1", received_amount: "0.1" })
    w.invoice({ id: "cinv_2", topup_of: "cinv_1", session_status: "captured", gateway_status: "completed", received_amount: "0.234", txn_id: "INV-2" })
    await notifyCryptoShopper(receivedInput, w.deps)
    await notifyCryptoShopper({ ...receivedInput, invoice_id: "cinv_2" }, w.deps)
    expect(w.notifications.rows).toHaveLength(1)
    expect(w.notifications.rows[0]).toMatchObject({
      to: "buyer@example.com",
      template: "crypto-payment-received",
      resource_id: "order_1",
      resource_type: "order",
      idempotency_key: "medusa-payment-crypto:paymentReceived:cinv_1",
      data: { amount: "0.334", amount_with_coin: "0.334 LTC", order_display_id: "1042" },
      content: { subject: "Payment received for order #1042" },
    })
  })

  it("asks for the rest of an invoice that ended short beyond the tolerance: received X of Y, once", async () => {
    const w = world()
    endedShort(w)
    const results = [await notifyCryptoShopper(underpaidInput, w.deps), await notifyCryptoShopper(underpaidInput, w.deps)]
    expect(results.map((result) => result.outcome)).toEqual(["sent", "already_sent"])
    expect(w.notifications.rows).toHaveLength(1)
    expect(w.notifications.rows[0]).toMatchObject({
      template: "crypto-payment-underpaid",
      idempotency_key: "medusa-payment-crypto:underpaid:cinv_1",
      data: { received_with_coin: "0.1 LTC", expected_with_coin: "0.334 LTC", due_with_coin: "0.234 LTC", return_url: "https://shop.test/checkout/crypto/return?cart_id=cart_1" },
    })
  })

  it("does not ask for the rest when it can no longer be paid: the order was canceled, or money was sent back", async () => {
    const canceled = world()
    endedShort(canceled)
    canceled.medusa.orderOfCart = "order_1"
    canceled.medusa.order = { ...canceled.medusa.order, status: "canceled" }
    expect((await notifyCryptoShopper(underpaidInput, canceled.deps)).outcome).toBe("not_due")

    const refunded = world()
    endedShort(refunded)
    refunded.withdrawals.push({ id: "cwdr_1", invoice_id: "cinv_1" })
    expect((await notifyCryptoShopper(underpaidInput, refunded.deps)).outcome).toBe("not_due")
    expect([...canceled.notifications.rows, ...refunded.notifications.rows]).toEqual([])
  })

  it("sends nothing for an underpayment within the tolerance (the order is kept, nothing is due)", async () => {
    const w = world()
    endedShort(w, { evidence: { within_tolerance: true } })
    expect((await notifyCryptoShopper(underpaidInput, w.deps)).outcome).toBe("not_due")
    expect(w.notifications.rows).toEqual([])
  })

  it("sends nothing when the merchant turned the messages off, all or one", async () => {
    const all = world({ shopperMessages: false })
    all.invoice({ id: "cinv_1", session_status: "captured", order_id: "order_1", received_amount: "0.334" })
    expect((await notifyCryptoShopper(receivedInput, all.deps)).outcome).toBe("off")
    const one = world({ shopperMessages: { paymentReceived: false } })
    one.invoice({ id: "cinv_1", session_status: "captured", order_id: "order_1", received_amount: "0.334" })
    expect((await notifyCryptoShopper(receivedInput, one.deps)).outcome).toBe("off")
    expect([...all.notifications.rows, ...one.notifications.rows]).toEqual([])
  })

  it("sends the merchant's provider template with the data only when content is off", async () => {
    const w = world({ shopperMessages: { paymentReceived: { template: "d-4f2a", content: false } } })
    w.invoice({ id: "cinv_1", session_status: "captured", order_id: "order_1", received_amount: "0.334" })
    await notifyCryptoShopper(receivedInput, w.deps)
    expect(w.notifications.rows[0]).toMatchObject({ template: "d-4f2a", data: { amount_with_coin: "0.334 LTC" } })
    expect(w.notifications.rows[0]).not.toHaveProperty("content")
  })

  it("does not throw in a store that sends no e-mail, and says so once", async () => {
    const w = world()
    w.invoice({ id: "cinv_1" })
    const deps = { ...w.deps, notifications: { unavailable: "no notification module is registered" } }
    await expect(notifyCryptoShopper(instructions, deps)).resolves.toMatchObject({ outcome: "unavailable" })
    await expect(notifyCryptoShopper(receivedInput, deps)).resolves.toMatchObject({ outcome: "unavailable" })
    expect(w.infos).toEqual(["crypto payments: shopper messages are off because no notification module is registered (docs/notifications.md)"])
  })

  it("throws when the provider failed to send, so a retry sends it again with the same key", async () => {
    const w = world()
    w.invoice({ id: "cinv_1" })
    let failures = 1
    const flaky: ShopperNotifications = {
      createNotifications: async (data) => {
        if (failures-- > 0) {
          w.notifications.rows.push({ ...data, status: "failure" })
          throw new Error("Failed to send notification: provider unreachable")
        }
        return w.notifications.module.createNotifications(data)
      },
      listNotifications: w.notifications.module.listNotifications,
    }
    const deps = { ...w.deps, notifications: flaky }
    await expect(notifyCryptoShopper(instructions, deps)).rejects.toThrow(/provider unreachable/)
    await expect(notifyCryptoShopper(instructions, deps)).resolves.toMatchObject({ outcome: "sent" })
  })
})
