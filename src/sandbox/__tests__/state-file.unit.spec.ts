import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

import { Dec, startSandbox } from "../index"
import { invoiceInput } from "./helpers"

describe("state file (--state)", () => {
  it("an invoice created before a restart is there after it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sandbox-state-")), "state.json")
    const first = await startSandbox({ port: 0, stateFile: file, tickIntervalMs: 0 })
    const shop = first.core.shops[0]
    const { invoice } = await first.core.createInvoice(
      shop,
      invoiceInput({ order_number: "persisted", order_name: "Persisted", psys_cid: "LTC", amount: new Dec("1.25") })
    )
    await first.close()
    const second = await startSandbox({ port: 0, stateFile: file, tickIntervalMs: 0 })
    const restored = second.core.invoice(invoice.txn_id)
    await second.close()
    expect([restored?.order_number, restored?.amount]).toEqual(["persisted", "1.25"])
  })

  it("the state file holds amounts as decimal strings", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sandbox-state-")), "state.json")
    const sandbox = await startSandbox({ port: 0, stateFile: file, tickIntervalMs: 0 })
    await sandbox.close()
    const saved = JSON.parse(readFileSync(file, "utf8")) as { state: { balances: Record<string, Record<string, unknown>> } }
    expect(Object.values(saved.state.balances).every((b) => Object.values(b).every((v) => typeof v === "string"))).toBe(true)
  })
})
