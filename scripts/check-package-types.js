// The package's types as a TypeScript store or developer meets them: a small program importing every
// server entry point of the INSTALLED package (./gateway, ./sandbox, ./workflows, ./providers/crypto,
// ./events) is type-checked with the store template's settings (strict, module/moduleResolution
// Node16, which read "exports" and its "types"), then compiled and run: it starts the bundled sandbox,
// creates an invoice with the gateway client, pays it through the sandbox's control client and reads
// the answer, and types a subscriber of one of the plugin's events.
// Lines marked @ts-expect-error must fail to compile: were an entry typed `any`, they would not, and
// tsc reports the unused directive, so this check cannot pass on untyped entries.
//
// Used by scripts/check-medusa-versions.js in each scratch store it installs (one counted check per
// store). Alone: `node scripts/check-package-types.js <folder with medusa-payment-crypto installed>`.
const { spawnSync } = require("child_process")
const fs = require("fs")
const path = require("path")

const root = path.resolve(__dirname, "..")

const program = `
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { Decimal, GatewayClient, GatewayOutcomeUnknownError, type Invoice } from "medusa-payment-crypto/gateway"
import { startSandbox, type InvoiceState, type RunningSandbox, type SandboxControl } from "medusa-payment-crypto/sandbox"
import { CryptoEvents, type CryptoEventName, type CryptoMoneyEvent } from "medusa-payment-crypto/events"
import { getCryptoPaymentStatusWorkflow, type StoreCryptoPaymentStatus } from "medusa-payment-crypto/workflows"
import cryptoProvider, { CryptoPaymentProviderService, type CryptoProviderOptions } from "medusa-payment-crypto/providers/crypto"

// The provider's options as a store writes them in medusa-config.
export const options: CryptoProviderOptions = {
  apiKey: "key",
  baseUrl: "https://gateway.example",
  backendUrl: "https://shop.example",
}
// @ts-expect-error apiKey is a string, not a number
export const wrongOptions: CryptoProviderOptions = { apiKey: 1, baseUrl: "https://gateway.example", backendUrl: "https://shop.example" }
export const provider = [cryptoProvider, CryptoPaymentProviderService]

// A store subscriber of one of the plugin's events: the payload type comes from the event map.
export default async function onUnderpaid({ event }: SubscriberArgs<CryptoEvents["crypto.payment.underpaid"]>): Promise<string> {
  const data: CryptoMoneyEvent = event.data
  // @ts-expect-error amounts travel as decimal strings, never numbers
  const wrong: number = data.amount
  return \`\${data.amount ?? "?"} \${data.currency ?? "?"} \${String(wrong)}\`
}
export const config: SubscriberConfig = { event: CryptoEvents.PAYMENT_UNDERPAID }
const eventName: CryptoEventName = "crypto.payment.late"
// @ts-expect-error not one of the plugin's events
const notAnEvent: CryptoEventName = "crypto.payment.unknown"

export const workflow = getCryptoPaymentStatusWorkflow
export type Status = StoreCryptoPaymentStatus

async function main(): Promise<void> {
  const sandbox: RunningSandbox = await startSandbox({ port: 0 })
  try {
    const shop = sandbox.shops[0]
    const gateway = new GatewayClient({ apiKey: shop.secretKey, baseUrl: sandbox.url })
    const invoice: Invoice = await gateway.invoices.create({
      order_name: "Types check",
      order_number: "types-1",
      currency: "BTC",
      source_currency: "EUR",
      source_amount: new Decimal("12.50"),
    })
    // @ts-expect-error txn_id is a string
    const wrongId: number = invoice.txn_id
    const control: SandboxControl = sandbox.control.as(shop.secretKey)
    const paid: InvoiceState = await control.pay(invoice.txn_id)
    if (!(GatewayOutcomeUnknownError.prototype instanceof Error)) {
      throw new Error("GatewayOutcomeUnknownError is not an Error")
    }
    process.stdout.write(JSON.stringify({ txn_id: invoice.txn_id, paid: paid.status, eventName, notAnEvent, wrongId }) + "\\n")
  } finally {
    await sandbox.close()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error) + "\\n")
  process.exit(1)
})
`

function tail(text, lines) {
  return String(text || "").trim().split("\n").slice(-lines).join("\n")
}

/**
 * Type-checks, compiles and runs the program in `appDir` (which has medusa-payment-crypto and
 * @medusajs/framework installed). Returns a one-line detail; throws with tsc's or node's output.
 */
function checkPackageTypes(appDir) {
  const dir = path.join(appDir, "types-check")
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "program.ts"), program)
  const compilerOptions = {
    strict: true,
    target: "ES2021",
    module: "Node16",
    moduleResolution: "Node16",
    esModuleInterop: true,
    skipLibCheck: true,
    outDir: "out",
    // the machine's @types/node (the store template installs its own)
    typeRoots: [path.join(root, "node_modules", "@types")],
    types: ["node"],
  }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["program.ts"] }, null, 2))
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] })
  const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", timeout: 180000 })
  if (compiled.status !== 0) {
    throw new Error(`tsc failed on the scratch program (${dir}/program.ts):\n${tail(compiled.stdout + compiled.stderr, 20)}`)
  }
  const ran = spawnSync(process.execPath, [path.join("out", "program.js")], { cwd: dir, encoding: "utf8", timeout: 60000 })
  if (ran.status !== 0) {
    throw new Error(`the compiled program failed (exit ${ran.status}${ran.signal ? `, ${ran.signal}` : ""}):\n${tail(ran.stdout + ran.stderr, 20)}`)
  }
  const result = JSON.parse(tail(ran.stdout, 1))
  if (result.paid !== "completed") {
    throw new Error(`the sandbox invoice is "${result.paid}" after pay, not "completed"`)
  }
  return `5 entries typed, invoice ${result.txn_id} created and paid through the installed package`
}

if (require.main === module) {
  const appDir = process.argv[2]
  if (!appDir || !fs.existsSync(path.join(appDir, "node_modules", "medusa-payment-crypto"))) {
    process.stderr.write("usage: node scripts/check-package-types.js <folder with medusa-payment-crypto installed>\n")
    process.exit(2)
  }
  try {
    process.stdout.write(`PASS the package's types (${checkPackageTypes(path.resolve(appDir))})\n`)
  } catch (error) {
    process.stdout.write(`FAIL the package's types: ${error.message}\n`)
    process.exit(1)
  }
}

module.exports = { checkPackageTypes }
