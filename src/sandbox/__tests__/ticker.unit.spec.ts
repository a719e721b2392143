// The sandbox's ticker (`tickIntervalMs`, src/sandbox/README.md "Life cycle"): with no request at all
// it applies the clock, so `pending internal` ends once `internalTransferSeconds` have passed and the
// callback goes out by itself. The HTTP tests end transfers through the control API (a reading of
// `pending internal` must not race the transfer's end); the ticker's own work is checked here.
import { GatewayClient } from "../../gateway"
import { createSandbox } from "../index"

const TRANSFER_SECONDS = 1

/** A callback target nothing listens on: the deliveries are what is read, not their answers. */
const NOWHERE = "http://127.0.0.1:9/hook?json=true"

it("ends pending internal by itself once the transfer's time has passed, and queues the completed callback without any request", async () => {
  const sandbox = createSandbox({ internalTransferSeconds: TRANSFER_SECONDS, tickIntervalMs: 50, retry: { maxAttempts: 1 } })
  try {
    const shop = sandbox.shops.find((candidate) => candidate.whiteLabel)
    if (shop === undefined) throw new Error("the bundled seed has a white-label shop")
    const client = new GatewayClient({ apiKey: shop.secretKey, baseUrl: sandbox.url, httpAdapter: sandbox.httpAdapter, maxRetries: 0 })
    const invoice = await client.invoices.create({ order_number: "ticker-1", order_name: "Ticker", currency: "USDT_TRX", amount: "25", callback_url: NOWHERE })

    const paid = await sandbox.control.as(shop.secretKey).pay(invoice.txn_id)
    // From here on no request reaches the sandbox: its delivery log is read in process, which moves nothing.
    const queued = () => sandbox.deliveries().filter((delivery) => delivery.ref === invoice.txn_id).map((delivery) => delivery.status)
    const deadline = Date.now() + 30_000
    while (!queued().includes("completed")) {
      if (Date.now() > deadline) throw new Error(`the ticker queued no completed callback within 30 s (queued: ${queued().join(", ")})`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }

    expect(paid.status).toBe("pending internal")
    expect(queued()).toEqual(["pending internal", "completed"])
  } finally {
    await sandbox.close()
  }
})
