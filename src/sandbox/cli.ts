#!/usr/bin/env node
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"

import { startSandbox } from "./index"

const USAGE = `medusa-payment-crypto-sandbox: a local emulator of the crypto payment gateway

Usage: medusa-payment-crypto-sandbox [--port 4010] [--host 127.0.0.1] [--seed FILE] [--state FILE]
                                     [--status-url URL] [--public-url URL] [--quiet]

  --port        port to listen on; 0 picks a free one (default 4010)
  --host        address to bind (default 127.0.0.1)
  --seed        a seed JSON file (default: the bundled seed/default.json)
  --state       load the state from FILE if it exists and save every change to it
  --status-url  the shops' Status URL / Success URL where the seed has none (deposit callbacks)
  --public-url  base URL put in invoice_url when the sandbox is reached through another address
  --quiet       do not log requests
`

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      seed: { type: "string" },
      state: { type: "string" },
      "status-url": { type: "string" },
      "public-url": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  })
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be an integer from 0 to 65535, got ${values.port}`)
  }
  const seed: unknown = values.seed === undefined ? undefined : JSON.parse(readFileSync(values.seed, "utf8"))
  const sandbox = await startSandbox({
    port,
    host: values.host,
    seed,
    stateFile: values.state,
    statusUrl: values["status-url"],
    publicUrl: values["public-url"],
    log: values.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  })
  const lines = [
    `Gateway sandbox listening on ${sandbox.url}`,
    `  API base:     ${sandbox.url}/api/v1`,
    `  Control API:  ${sandbox.url}/_sandbox`,
    "  Shops:",
    ...sandbox.shops.map((s) => `    ${s.id.padEnd(18)} ${(s.whiteLabel ? "white-label" : "plain").padEnd(12)} api_key=${s.secretKey}  (${s.name})`),
    "Press Ctrl-C to stop.",
  ]
  process.stdout.write(`${lines.join("\n")}\n`)
  let stopping = false
  const stop = (): void => {
    if (stopping) {
      return
    }
    stopping = true
    void sandbox.close().then(() => process.exit(0))
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})
