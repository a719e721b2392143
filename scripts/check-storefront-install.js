#!/usr/bin/env node
// Installs the packed plugin into two scratch storefront apps (React 18 and React 19) the way a merchant's
// storefront would (`npm install medusa-payment-crypto`) and checks that:
//   - no Medusa server package lands in the app (@medusajs/medusa, @medusajs/framework: the @medusajs peers are
//     optional, so npm does not install them);
//   - `medusa-payment-crypto/storefront`, `/storefront/server` and `/storefront/styles.css` resolve
//     (require.resolve) and the two entries import as ES modules;
//   - the plugin brings no React of its own, and every component renders with that app's React
//     (react-dom/server renderToString);
//   - TypeScript finds the types of both entries with `moduleResolution: "node"` (Medusa's Next.js starter;
//     it ignores "exports", so package.json "typesVersions" points there) and with "bundler".
// One PASS/FAIL line per check; exit code 1 when any failed.
//
//   node scripts/check-storefront-install.js [--skip-build] [--keep]
//     --skip-build  pack what .medusa/ holds now instead of running `npm run build` first
//     --keep        leave the scratch folder (its path is printed)
const { execFileSync } = require("child_process")
const fs = require("fs")
const os = require("os")
const path = require("path")

const root = path.resolve(__dirname, "..")
const args = new Set(process.argv.slice(2))
const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mpc-storefront-install-"))
const results = []

function report(ok, name, detail) {
  results.push(ok)
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` (${detail})` : ""}\n`)
}

function run(command, commandArgs, cwd) {
  return execFileSync(command, commandArgs, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" },
  })
}

// What each app runs: the kit's entries imported as ES modules, and every component rendered on the server.
const renderCheck = `
import { createRequire } from "node:module"
import React from "react"
import { renderToString } from "react-dom/server"
const require = createRequire(import.meta.url)
const kit = await import("medusa-payment-crypto/storefront")
const server = await import("medusa-payment-crypto/storefront/server")
const h = React.createElement
const status = {
  cart_id: "cart_1",
  order_id: null,
  invoice: {
    status: "pending", shopper_status: "detected", txn_id: "txn_1", psys_cid: "BTC", currency: "BTC", address: "bc1qexample",
    amount: "123456789012345678901234567890.12345678", pending_amount: "0", confirmations: { current: 1, required: 3 },
    expires_at: new Date(Date.now() + 600000).toISOString(),
  },
}
const coins = [{ psys_cid: "USDT_TRX", currency: "USDT", name: "Tether", icon: null, amount: "49.9", rate: "1", maintenance: false, default: true }]
const html = {
  CryptoCoinPicker: renderToString(h(kit.CryptoCoinPicker, { currencies: coins, value: "USDT_TRX", onChange: () => {} })),
  CryptoPayButton: renderToString(h(kit.CryptoPayButton, { invoiceUrl: "https://gateway.example/i/1" })),
  CryptoPaymentPanel: renderToString(h(kit.CryptoPaymentPanel, { status, locale: "en-US" })),
  CryptoPaymentResult: renderToString(h(kit.CryptoPaymentResult, { status: { ...status, order_id: "order_1" }, orderHref: (id) => "/order/" + id })),
  CryptoPaymentSummary: renderToString(h(kit.CryptoPaymentSummary, { data: { psys_cid: "USDT_TRX", amount: "49.9", tx_urls: ["https://tronscan.org/#/transaction/1"] } })),
}
process.stdout.write(JSON.stringify({
  react: React.version,
  resolved: Object.fromEntries(
    ["medusa-payment-crypto/storefront", "medusa-payment-crypto/storefront/server", "medusa-payment-crypto/storefront/styles.css"].map(
      (specifier) => [specifier, require.resolve(specifier)]
    )
  ),
  serverExports: Object.keys(server).sort(),
  decision: server.resolveCryptoReturn(status),
  html,
}))
`

const expectations = {
  CryptoCoinPicker: ["mpc-coin-picker", "TRON (TRC-20)"],
  CryptoPayButton: ["mpc-pay-button", "Pay with crypto"],
  CryptoPaymentPanel: ['data-status="detected"', 'aria-live="polite"', "1 of 3 confirmations", "123,456,789,012,345,678,901,234,567,890.12345678 BTC", "<svg"],
  CryptoPaymentResult: ['data-status="order"', 'href="/order/order_1"'],
  CryptoPaymentSummary: ["USDT · TRON (TRC-20)", "https://tronscan.org/#/transaction/1"],
}

// Type-checks a file importing both entries, as a storefront's tsconfig would (skipLibCheck, like the starters).
const typesCheck = `
import { CryptoPaymentPanel, formatCryptoAmount, type CryptoPaymentStatusResponse } from "medusa-payment-crypto/storefront"
import { getCryptoPaymentStatus, resolveCryptoReturn, type CryptoReturnDecision } from "medusa-payment-crypto/storefront/server"
const status: CryptoPaymentStatusResponse = { cart_id: "cart_1", order_id: null, payment_collection_status: null, invoice: null, cart_changed: false, abandoned_payments: [] }
const decision: CryptoReturnDecision = resolveCryptoReturn(status)
const text: string = formatCryptoAmount("1.5")
export { CryptoPaymentPanel, getCryptoPaymentStatus, decision, text }
`

function checkTypes(app, label) {
  fs.writeFileSync(path.join(app, "kit-types.ts"), typesCheck)
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] })
  for (const moduleResolution of ["node", "bundler"]) {
    const config = `tsconfig.${moduleResolution}.json`
    const compilerOptions = { noEmit: true, strict: true, skipLibCheck: true, module: "esnext", moduleResolution, target: "es2020", types: [] }
    fs.writeFileSync(path.join(app, config), JSON.stringify({ compilerOptions, files: ["kit-types.ts"] }))
    const name = `${label} TypeScript resolves both entries (moduleResolution ${moduleResolution})`
    try {
      run(process.execPath, [tsc, "-p", config], app)
      report(true, name)
    } catch (error) {
      report(false, name, String(error.stdout || error.message).split("\n").slice(0, 4).join(" | "))
    }
  }
}

function checkApp(major, tarball) {
  const app = path.join(scratch, `react${major}`)
  fs.mkdirSync(app)
  run(npm, ["init", "-y"], app)
  run(npm, ["install", `react@${major}`, `react-dom@${major}`], app)
  run(npm, ["install", tarball], app)
  const label = `React ${major}:`

  for (const name of ["@medusajs/medusa", "@medusajs/framework"]) {
    const present = fs.existsSync(path.join(app, "node_modules", name))
    report(!present, `${label} ${name} is not installed`, present ? `found node_modules/${name}` : "")
  }
  const medusa = fs.existsSync(path.join(app, "node_modules", "@medusajs")) ? fs.readdirSync(path.join(app, "node_modules", "@medusajs")) : []
  report(medusa.length === 0, `${label} no @medusajs package at all`, medusa.length > 0 ? `found ${medusa.join(", ")}` : "")
  const ownReact = fs.existsSync(path.join(app, "node_modules", "medusa-payment-crypto", "node_modules", "react"))
  report(!ownReact, `${label} the plugin brings no React of its own`)

  checkTypes(app, label)

  fs.writeFileSync(path.join(app, "check.mjs"), renderCheck)
  let output
  try {
    output = JSON.parse(run(process.execPath, ["check.mjs"], app))
  } catch (error) {
    report(false, `${label} import and render the kit`, String(error.stderr || error.message).split("\n").slice(0, 6).join(" | "))
    return
  }
  report(output.react.startsWith(`${major}.`), `${label} the app runs React ${major}`, output.react)
  for (const [specifier, file] of Object.entries(output.resolved)) {
    report(fs.existsSync(file), `${label} require.resolve("${specifier}")`, path.relative(app, file))
  }
  const serverNeeds = ["getCryptoPaymentStatus", "listCryptoCurrencies", "initiateCryptoSession", "resolveCryptoReturn"]
  const missing = serverNeeds.filter((name) => !output.serverExports.includes(name))
  report(missing.length === 0, `${label} import("medusa-payment-crypto/storefront/server")`, missing.length ? `missing ${missing.join(", ")}` : "")
  report(output.decision.kind === "pending", `${label} resolveCryptoReturn runs`, JSON.stringify(output.decision))
  for (const [component, needles] of Object.entries(expectations)) {
    const text = output.html[component] ?? ""
    const absent = needles.filter((needle) => !text.includes(needle))
    report(absent.length === 0, `${label} renderToString(<${component}>)`, absent.length ? `missing ${absent.join(", ")}` : "")
  }
}

try {
  if (!args.has("--skip-build")) {
    process.stdout.write("building the plugin (npm run build)…\n")
    run(npm, ["run", "build"], root)
  }
  // The build above is what prepack would run; --ignore-scripts keeps npm pack from building twice.
  const packed = JSON.parse(run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch], root))
  const tarball = path.join(scratch, packed[0].filename)
  const packedFiles = packed[0].files.map((file) => file.path)
  for (const file of [".medusa/storefront/index.js", ".medusa/storefront/server.js", ".medusa/storefront/index.d.ts", ".medusa/storefront/styles.css", ".medusa/storefront/package.json"]) {
    report(packedFiles.includes(file), `the tarball holds ${file}`)
  }
  for (const major of [18, 19]) {
    try {
      checkApp(major, tarball)
    } catch (error) {
      report(false, `React ${major}: scratch app`, String(error.stderr || error.message).split("\n").slice(0, 6).join(" | "))
    }
  }
} finally {
  if (args.has("--keep")) {
    process.stdout.write(`scratch folder kept: ${scratch}\n`)
  } else {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

const failed = results.filter((ok) => !ok).length
fs.mkdirSync(path.join(root, ".test-results"), { recursive: true })
fs.writeFileSync(path.join(root, ".test-results", "storefront-install.json"), JSON.stringify({ passed: results.length - failed, failed }))
process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`)
process.exit(failed > 0 ? 1 : 0)
