/**
 * Contract: a sandbox FORM callback verified by PHP itself, as the gateway family's PHP receivers
 * verify it (spec §6.3; docs/gateway-readings.md#tx-urls): `php -S` serves php/receiver.php,
 * which reads `$_POST`, decodes `html_entity_decode($post['tx_urls'])` (one string field), and
 * compares `hash_hmac('sha1', serialize(…), $key)` with `verify_hash`. Needs php-cli; without it the
 * suite is skipped with a message naming the package.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createServer } from "node:net"
import path from "node:path"

import { GatewayClient } from "../../src/gateway"
import { startSandbox, type Delivery, type RunningSandbox, type SandboxShop } from "../../src/sandbox"
import { clientFor, controlOf, shopOf } from "./helpers"

// Over real HTTP to a running sandbox and a `php -S` process (whose start alone may take up to
// waitForPort's 10 s): on a loaded CI machine that passes jest's default 5 s. Speed is not what these tests check.
jest.setTimeout(60_000)

const HAS_PHP = spawnSync("php", ["--version"], { stdio: "ignore" }).status === 0
const describeWithPhp = HAS_PHP ? describe : describe.skip

if (!HAS_PHP) {
  // eslint-disable-next-line no-console
  console.warn("php-receiver.spec.ts skipped: php is not installed (Debian: apt-get install -y php-cli)")
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

async function waitForPort(port: number, php: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (php.exitCode !== null) {
      throw new Error(`php -S exited with ${php.exitCode}`)
    }
    const up = await fetch(`http://127.0.0.1:${port}/`, { method: "POST" }).then(
      () => true,
      () => false
    )
    if (up) {
      return
    }
    if (Date.now() > deadline) {
      throw new Error("php -S did not start within 10 s")
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

interface PhpVerdict {
  verified: boolean
  error: string | null
  status: string | null
  tx_url_count: number | null
  tx_urls_are_links: boolean
}

let sandbox: RunningSandbox
let wl: SandboxShop
let client: GatewayClient
let php: ChildProcess
let receiverUrl: string
let seq = 0

describeWithPhp("a sandbox form callback verified by PHP's serialize() and hash_hmac()", () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, tickIntervalMs: 0, retry: { maxAttempts: 1, baseDelayMs: 10, timeoutMs: 5000 } })
    wl = shopOf(sandbox, "white-label")
    client = clientFor(sandbox, wl)
    const port = await freePort()
    php = spawn("php", ["-S", `127.0.0.1:${port}`, path.join(__dirname, "php", "receiver.php")], {
      env: { ...process.env, SANDBOX_SECRET_KEY: wl.secretKey },
      stdio: "ignore",
    })
    await waitForPort(port, php)
    receiverUrl = `http://127.0.0.1:${port}/callback`
  })

  afterAll(async () => {
    php?.kill()
    await sandbox?.close()
  })

  /** A white-label invoice posting multipart callbacks to the PHP receiver, paid as `payments` say. */
  async function paidInvoice(payments: { amount?: string; confirmations?: number }[], thenConfirm = false): Promise<Delivery[]> {
    const invoice = await client.invoices.create({
      order_number: `php-${++seq}`,
      order_name: "Café & \"PHP\" receiver",
      currency: "BTC",
      amount: "0.01",
      callback_url: receiverUrl,
    })
    for (const payment of payments) {
      await controlOf(sandbox, wl).pay(invoice.txn_id, payment)
    }
    if (thenConfirm) {
      await controlOf(sandbox, wl).confirm(invoice.txn_id)
    }
    await sandbox.callbacksIdle()
    return controlOf(sandbox, wl).callbacks({ txnId: invoice.txn_id })
  }

  const verdictOf = (delivery: Delivery): PhpVerdict => JSON.parse(delivery.attempts[0]?.response_body ?? "null") as PhpVerdict

  it("PHP accepts the signature of a completed invoice's multipart callback", async () => {
    const [delivery] = await paidInvoice([{}])
    expect([delivery.format, delivery.attempts[0]?.http_status, verdictOf(delivery).verified]).toEqual(["multipart", 200, true])
  })

  it("PHP reads tx_urls as one JSON string holding every explorer link", async () => {
    const deliveries = await paidInvoice([{ amount: "0.005", confirmations: 0 }, { confirmations: 0 }])
    const last = verdictOf(deliveries[deliveries.length - 1])
    expect([last.verified, last.tx_url_count, last.tx_urls_are_links]).toEqual([true, 2, true])
  })

  it("PHP accepts every callback of a life cycle (pending, then completed)", async () => {
    const deliveries = await paidInvoice([{ confirmations: 0 }], true)
    const refused = deliveries.filter((d) => !verdictOf(d).verified).map((d) => d.status)
    expect([deliveries.map((d) => d.status), refused]).toEqual([["pending", "completed"], []])
  })
})
