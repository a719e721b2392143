#!/usr/bin/env node
// The admin in a real browser: Playwright (playwright-core) drives Debian's Chromium against the demo
// store (scripts/demo.js): log in, open the Crypto page and see balances, make a withdrawal through the
// confirmation prompt, see it in operations, open the order the demo paid in crypto and see the widget,
// open the crypto settings; the money-out policy: the address book, settlement rules, a withdrawal above
// the approval threshold that a second admin approves. Then a shopper pays in the example storefront (scripts/storefront-browser-test.js:
// hosted and white-label flows, expiry, coin change, a11y). Screenshots go to docs/screenshots/ (the README
// shows them). Prints one line per step and a closing "N passed, N failed" (admin and storefront together,
// also written to .test-results/browser.json); exits non-zero when a step fails.
// `--no-storefront` runs the admin steps only; `--attach` drives a running `npm run demo`.
const fs = require("fs")
const path = require("path")
const { isDeepStrictEqual } = require("util")
const { startDemo, shutdown } = require("./demo")
const { paymentStatus } = require("./demo-checkout")
const { root, waitFor, writeResults } = require("./lib/processes")
const { launchChromium, logInToAdmin, openCryptoPage, adminFetch, adminJson, ensureAdminUser } = require("./lib/admin-browser")
const { booksSteps } = require("./browser/books")
const { orderRulesSteps } = require("./browser/order-rules")

const shots = path.join(root, "docs", "screenshots")
// A syntactically valid bech32-shaped BTC address (the sandbox checks the shape, not the checksum).
const WITHDRAW_ADDRESS = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"
const WITHDRAW_AMOUNT = "0.0015"

const results = []
const pageErrors = []
let currentPage = null

async function step(name, fn) {
  const started = Date.now()
  try {
    await fn()
    results.push({ name, ok: true })
    process.stdout.write(`ok   ${name} (${Date.now() - started} ms)\n`)
  } catch (error) {
    results.push({ name, ok: false })
    process.stdout.write(`FAIL ${name}: ${String(error && error.message).split("\n")[0]}\n`)
    if (currentPage) {
      const file = path.join(root, ".test-results", `browser-failure-${results.length}.png`)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      await currentPage.screenshot({ path: file, fullPage: true }).catch(() => undefined)
      process.stdout.write(`     screenshot: ${path.relative(root, file)}; url: ${currentPage.url()}\n`)
    }
    for (const message of pageErrors.slice(-5)) {
      process.stdout.write(`     page error: ${message}\n`)
    }
    throw error
  }
}

// A step that stands alone: its failure is counted and the steps after it still run.
const independent = (name, fn) => step(name, fn).catch(() => undefined)

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}

/**
 * Scrolls `element` to the middle of the window: the admin scrolls its content inside the page, so a
 * screenshot shows the window (its sidebar too), and what lies below it only once scrolled to.
 */
const scrollToMiddle = (element) => element.evaluate((node) => node.scrollIntoView({ block: "center" }))

// ---- Money out (withdrawals history + resolve, mass payout, fee plans, exchanges history) ----------
// Recorded withdrawals and exchanges with their state; an unknown outcome (the sandbox's `malformed`
// fault: the gateway acts, the answer is unreadable) resolved after a page reload.

/** Injects a sandbox fault on the next matching gateway request, through the sandbox's typed control client. */
async function sandboxFault(demo, body) {
  const key = demo.shop ? demo.shop.secretKey : demo.sandboxApiKey
  const control = demo.sandbox
    ? demo.sandbox.control.as(key)
    : require(path.join(root, ".medusa/server/src/sandbox/index.js")).connectSandboxControl({ url: demo.sandboxUrl, apiKey: key })
  await control.fault(body)
}

/** Sends the withdraw form after its confirmation prompt and waits for the result panel. */
async function sendWithdrawForm(page) {
  await page.waitForFunction(() => /Network fee\s+[0-9][0-9.,]* BTC/.test(document.body.innerText))
  await page.getByRole("button", { name: "Review and send" }).click()
  const dialog = page.getByRole("alertdialog")
  await dialog.waitFor()
  await dialog.getByRole("button", { name: /send/i }).click()
  await page.getByLabel("Withdrawal result").waitFor()
}

/** On the Exchange tab: 0.01 BTC to ETH, estimated (the form then asks for the receiving address). */
async function estimateExchange(page) {
  await page.locator("#exchange-from").click()
  await page.getByRole("option", { name: /^BTC\b/ }).first().click()
  await page.locator("#exchange-to").click()
  await page.getByRole("option", { name: /^ETH\b/ }).first().click()
  await page.locator("#exchange-amount").fill("0.01")
  await page.getByRole("button", { name: "Estimate" }).click()
}

async function moneyOutSteps(page, demo) {
  await step("the withdraw form offers the coin's fee plans from the gateway", async () => {
    await page.getByRole("tab", { name: "Withdraw" }).click()
    await page.locator("#withdraw-coin").click()
    await page.getByRole("option", { name: /^BTC\b/ }).first().click()
    await page.locator("#withdraw-plan").click()
    // The plan's fee as the gateway's fee-plan endpoint gives it (spec §2.6), not a fixed label.
    await page.getByRole("option", { name: /Priority — fee [0-9.]+ BTC/ }).waitFor()
    await shot(page, "crypto-fee-plans")
    await page.getByRole("option", { name: /Normal — fee/ }).click()
  })

  await step("a mass payout goes out as one withdrawal to every recipient", async () => {
    await page.locator("#withdraw-mass").click()
    await page.locator("#withdraw-list").fill(
      ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq 0.001", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh 0.0012", "bc1q9d4ywgfnd8h43da5tpcxcn6ajv590cg6d3tg6a 0.0013"].join("\n")
    )
    await page.getByText("3 valid recipients").waitFor()
    await sendWithdrawForm(page)
    await page.getByLabel("Withdrawal result").getByText("completed").waitFor()
    await page.getByLabel("Withdrawal result").getByText(/0\.0035 BTC/).waitFor()
    await shot(page, "crypto-mass-payout")
    await page.locator("#withdraw-mass").click()
  })

  await step("a withdrawal whose answer is lost is resolved in History after a reload", async () => {
    await sandboxFault(demo, { path: "/api/v1/operations/withdraw", mode: "malformed" })
    await page.locator("#withdraw-address").fill("bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h")
    await page.locator("#withdraw-amount").fill("0.0011")
    await sendWithdrawForm(page)
    await page.getByLabel("Withdrawal result").getByText("outcome unknown").waitFor()
    await page.reload()
    await page.getByRole("tab", { name: "History" }).click()
    const history = page.getByLabel("Withdrawals history")
    await history.getByRole("button", { name: "Resolve" }).first().click()
    const detail = page.getByLabel("Withdrawal detail")
    await detail.getByLabel("Candidate operations").waitFor()
    await shot(page, "crypto-history-resolve")
    await detail.getByRole("button", { name: "This operation is it" }).first().click()
    const dialog = page.getByRole("alertdialog")
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Yes, this is it" }).click()
    await detail.getByText(/this operation is it, by/).waitFor()
    await shot(page, "crypto-history")
  })

  await step("a confirmed exchange is recorded and listed in the exchange history", async () => {
    await page.getByRole("tab", { name: "Exchange" }).click()
    await estimateExchange(page)
    await page.getByLabel(/Receiving address/).fill("0x52908400098527886e0f7030069857d2e4169ee7")
    await page.getByRole("button", { name: "Create exchange" }).click()
    const dialog = page.getByRole("alertdialog")
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Create exchange" }).click()
    await page.getByLabel("Exchange result").waitFor()
    await page.getByLabel("Exchanges history").getByRole("cell", { name: /0\.01 BTC → ETH/ }).first().waitFor()
    await shot(page, "crypto-exchanges-history")
  })
}
// ---- end of money out --------------------------------------------------------------------------

// ---- Money-out policy (docs/money-out.md#money-out-policy): address book, settlement rules, approvals
// Each check sets up what it needs through the admin API and acts through the screen it is about;
// what it changes in the policy is put back, so the checks after it meet the demo's policy.

const ETH_ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7"
// The other addresses the withdrawal steps pay (mass payout, a lost answer, an exchange's payout).
const OTHER_ADDRESSES = [
  ["BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
  ["BTC", "bc1q9d4ywgfnd8h43da5tpcxcn6ajv590cg6d3tg6a"],
  ["BTC", "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h"],
  ["ETH", ETH_ADDRESS],
]
const USDT_ETH_ADDRESS = "0x742d35cc6634c0532925a3b844bc454e4438f44e"
// Above it (in the store currency, EUR) a withdrawal waits for another admin: 0.002 BTC is worth about 118 EUR at the sandbox's rate.
const APPROVAL_THRESHOLD = "50"
const APPROVAL_AMOUNT = "0.002"
const APPROVER = { email: "approver@example.com", password: "approver-secret", first_name: "Ada", last_name: "Approver" }

/** Saves `[coin, address, label?]` entries in the address book (an entry saved already is answered as it is). */
async function saveAddresses(page, entries) {
  for (const [psys_cid, address, label] of entries) {
    await adminJson(page, "/admin/crypto/money-out/addresses", { method: "POST", body: { psys_cid, address, ...(label ? { label } : {}) }, ok: [200, 201] })
  }
}

/** Changes fields of the money-out policy through its route (a check's own setup and clean-up). */
async function setPolicy(page, patch) {
  return (await adminJson(page, "/admin/crypto/money-out/policy", { method: "POST", body: patch })).policy
}

/** Throws naming `what` and both values unless `actual` deep-equals `expected`. */
function expectEqual(what, actual, expected) {
  if (!isDeepStrictEqual(actual, expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
}

/** A date as the admin prints it (formatDate: the browser's toLocaleString). */
const localeDate = (page, iso) => page.evaluate((value) => new Date(value).toLocaleString(), iso)

/** The text of each cell of `row`, trimmed (textContent: what is written, whatever the CSS does to it). */
const cellTexts = async (row) => (await row.getByRole("cell").allTextContents()).map((text) => text.trim())

/** The answer to the next POST the page makes to `pathname`. */
const nextPost = (page, pathname) => page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === pathname)

/** Opens a Select by its trigger and picks the option named exactly `name`. */
async function choose(page, trigger, name) {
  await trigger.click()
  await page.getByRole("option", { name, exact: true }).click()
}

async function addressBookListing(page, admin) {
  await page.goto(`${admin}/settings/crypto`)
  // The address the step above saves through the form; saved here too when that step did not get so far.
  await saveAddresses(page, [["BTC", WITHDRAW_ADDRESS, "Cold wallet"]])
  await page.reload()
  const { user } = await adminJson(page, "/admin/users/me")
  const saved = (await adminJson(page, "/admin/crypto/money-out/addresses?psys_cid=BTC")).addresses.filter((entry) => entry.address === WITHDRAW_ADDRESS)
  if (saved.length !== 1) throw new Error(`the address book holds ${saved.length} entries for ${WITHDRAW_ADDRESS}, not 1`)
  const [entry] = saved
  // The demo's cooling-off is 0: usable from the moment it was added, and listed as usable.
  expectEqual("usable_from (cooling-off 0)", new Date(entry.usable_from).toISOString(), new Date(entry.added_at).toISOString())
  const book = page.getByTestId("address-book")
  await book.getByText("A new address is usable after the cooling-off (0 minutes); every admin is told when one is added.", { exact: true }).waitFor()
  const rows = book.getByRole("row").filter({ has: page.getByRole("cell", { name: WITHDRAW_ADDRESS, exact: true }) })
  await rows.first().waitFor()
  expectEqual("rows listing the address", await rows.count(), 1)
  // Coin, address (whole, also as the cell's title: the cell truncates it), label, added when and by whom, usable.
  expectEqual("the address book's row", await cellTexts(rows), ["BTC", WITHDRAW_ADDRESS, "Cold wallet", `${await localeDate(page, entry.added_at)} · ${user.id}`, "usable", "Remove"])
  expectEqual("the address cell's title", await rows.getByRole("cell").nth(1).getAttribute("title"), WITHDRAW_ADDRESS)
  await scrollToMiddle(book)
  await shot(page, "crypto-address-book")
}

async function settlementRulesStep(page, admin) {
  await page.goto(`${admin}/settings/crypto`)
  await saveAddresses(page, [["USDT_ETH", USDT_ETH_ADDRESS, "Treasury"], ["ETH", ETH_ADDRESS]])
  // From no rules (a run against a running demo may have left one); the rule itself is made in the form.
  await setPolicy(page, { settlement: {} })
  try {
    await page.reload()
    const rules = page.getByTestId("settlement-rules")
    const field = (name) => rules.getByLabel(`Settlement 1 ${name}`, { exact: true })
    const toggle = (name) => rules.getByRole("switch", { name: `Settlement 1 ${name}`, exact: true })
    await rules.getByRole("button", { name: "Add a settlement rule" }).click()
    await choose(page, field("coin"), "ETH")
    await toggle("convert").click()
    await choose(page, field("convert to"), "USDT_ETH")
    await choose(page, field("convert address"), `Treasury — ${USDT_ETH_ADDRESS} (usable)`)
    await field("minimum").fill("0.01")
    await field("max difference").fill("2")
    await toggle("sweep").click()
    await field("sweep threshold").fill("5")
    await choose(page, field("sweep address"), `${ETH_ADDRESS} (usable)`)
    const answer = nextPost(page, "/admin/crypto/money-out/policy")
    await page.getByRole("button", { name: "Save money-out policy" }).click()
    expectEqual("POST /admin/crypto/money-out/policy's status", (await answer).status(), 200)
    await page.getByText("Money-out policy saved", { exact: true }).first().waitFor()

    // What the page shows after a reload is the policy in force (the demo's cooling-off 0: nothing waits).
    await page.reload()
    await field("convert address").filter({ hasText: "(usable)" }).waitFor({ timeout: 30000 })
    const text = async (locator) => (await locator.textContent()).trim()
    expectEqual(
      "the settlement rules after a reload",
      {
        rules: await rules.getByRole("combobox", { name: /^Settlement \d+ coin$/ }).count(),
        coin: await text(field("coin")),
        convert: await toggle("convert").getAttribute("aria-checked"),
        convertTo: await text(field("convert to")),
        convertAddress: await text(field("convert address")),
        minimum: await field("minimum").inputValue(),
        maxDifference: await field("max difference").inputValue(),
        sweep: await toggle("sweep").getAttribute("aria-checked"),
        sweepThreshold: await field("sweep threshold").inputValue(),
        sweepAddress: await text(field("sweep address")),
      },
      {
        rules: 1,
        coin: "ETH",
        convert: "true",
        convertTo: "USDT_ETH",
        convertAddress: `Treasury — ${USDT_ETH_ADDRESS} (usable)`,
        minimum: "0.01",
        maxDifference: "2",
        sweep: "true",
        sweepThreshold: "5",
        sweepAddress: `${ETH_ADDRESS} (usable)`,
      }
    )
    if ((await page.getByTestId("money-out-pending").count()) !== 0) throw new Error(`a change waits for the cooling-off: ${await page.getByTestId("money-out-pending").innerText()}`)
    const { policy } = await adminJson(page, "/admin/crypto/money-out/policy")
    expectEqual("GET /admin/crypto/money-out/policy's effective.settlement", policy.effective.settlement, {
      ETH: {
        convert: { to_currency: "USDT_ETH", to_address: USDT_ETH_ADDRESS, min_amount: "0.01", max_difference_percent: "2" },
        sweep: { threshold: "5", to_address: ETH_ADDRESS },
      },
    })
    await scrollToMiddle(rules)
    await shot(page, "crypto-settlement-rules")
  } finally {
    // No conversion or sweep of ETH for the checks after this one.
    await setPolicy(page, { settlement: {} }).catch(() => undefined)
  }
}

/** The row of the To approve tab that holds withdrawal `id` (its note field names it). */
const approvalRow = (page, id) => page.getByTestId("approvals").getByRole("row").filter({ has: page.getByLabel(`Note for ${id}`, { exact: true }) })

/** How many BTC cash-outs the gateway lists (GET /admin/crypto/operations). */
const gatewayCashOuts = async (page) => (await adminJson(page, "/admin/crypto/operations?type=cash_out&currency=BTC&limit=1")).meta.totalCount

async function approvalStep(browser, page, admin, demo) {
  await page.goto(`${admin}/settings/crypto`)
  await saveAddresses(page, [["BTC", WITHDRAW_ADDRESS, "Cold wallet"]])
  // From no threshold (a run against a running demo may have left one); the threshold itself is set in the form.
  await setPolicy(page, { approval_threshold: null })
  let approverContext = null
  try {
    await page.reload()
    await page.locator("#money-out-approval").fill(APPROVAL_THRESHOLD)
    const saved = nextPost(page, "/admin/crypto/money-out/policy")
    await page.getByRole("button", { name: "Save money-out policy" }).click()
    const savedAnswer = await saved
    expectEqual("POST /admin/crypto/money-out/policy's status", savedAnswer.status(), 200)
    await page.getByText("Money-out policy saved", { exact: true }).first().waitFor()
    expectEqual("the approval threshold in force", (await adminJson(page, "/admin/crypto/money-out/policy")).policy.effective.approval_threshold, APPROVAL_THRESHOLD)

    await page.goto(`${admin}/crypto`)
    await page.getByRole("tab", { name: "Withdraw" }).click()
    await page.locator("#withdraw-coin").click()
    await page.getByRole("option", { name: /^BTC\b/ }).first().click()
    await page.locator("#withdraw-address").fill(WITHDRAW_ADDRESS)
    await page.locator("#withdraw-amount").fill(APPROVAL_AMOUNT)
    const created = nextPost(page, "/admin/crypto/withdrawals")
    await sendWithdrawForm(page)
    const createdAnswer = await created
    const { withdrawal } = await createdAnswer.json()
    expectEqual("the new withdrawal's answer", { http: createdAnswer.status(), status: withdrawal.status }, { http: 202, status: "awaiting_approval" })
    await page.getByLabel("Withdrawal result").getByText("awaiting approval", { exact: true }).waitFor()
    if (!new Decimal(withdrawal.value_amount).gt(APPROVAL_THRESHOLD)) throw new Error(`worth ${withdrawal.value_amount} ${withdrawal.value_currency}, not above ${APPROVAL_THRESHOLD}`)

    // To approve: who asked, what, how much (and its worth in the store currency), where to.
    const { user: requester } = await adminJson(page, "/admin/users/me")
    const waiting = await adminJson(page, "/admin/crypto/withdrawals?status=awaiting_approval&limit=100")
    await page.getByRole("tab", { name: /To approve/ }).click()
    const row = approvalRow(page, withdrawal.id)
    await row.waitFor()
    expectEqual("the To approve badge", (await page.getByTestId("approval-count").textContent()).trim(), String(waiting.count))
    // Its worth in the store's default currency, as formatFiat writes it (two decimals, half up, thousands grouped).
    const { stores } = await adminJson(page, "/admin/stores?fields=supported_currencies.*")
    const storeCurrency = stores[0].supported_currencies.find((currency) => currency.is_default).currency_code.toUpperCase()
    expectEqual("the worth's currency", withdrawal.value_currency.toUpperCase(), storeCurrency)
    const worth = `${new Decimal(withdrawal.value_amount).toFixed(2, Decimal.ROUND_HALF_UP).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} ${storeCurrency}`
    expectEqual("the waiting withdrawal's row", (await cellTexts(row)).slice(0, 5), [
      `${await localeDate(page, withdrawal.requested_at)} · ${requester.id}`,
      "withdrawal",
      `${APPROVAL_AMOUNT} BTC`,
      worth,
      WITHDRAW_ADDRESS,
    ])

    // The admin who asked cannot approve it: the server refuses, the screen says why, nothing is sent.
    const cashOutsBefore = await gatewayCashOuts(page)
    const refused = nextPost(page, `/admin/crypto/withdrawals/${withdrawal.id}/approve`)
    await row.getByRole("button", { name: "Approve" }).click()
    expectEqual("the requester's approval's status", (await refused).status(), 400)
    await page.getByText("Not approved", { exact: true }).first().waitFor()
    await page.getByText(`Withdrawal ${withdrawal.id} was asked by you: another admin must approve it (money-out policy, rule: approval)`, { exact: true }).waitFor()
    const still = (await adminJson(page, `/admin/crypto/withdrawals/${withdrawal.id}`)).withdrawal
    expectEqual("the withdrawal after its requester's approval", { status: still.status, operation_id: still.operation_id }, { status: "awaiting_approval", operation_id: null })
    await row.waitFor()
    await page.waitForTimeout(500) // let the toast's slide-in finish for the screenshot
    await shot(page, "crypto-approvals")

    // A second admin approves it in their own session: sent once.
    const approver = await ensureAdminUser(demo.backendUrl, demo.admin, APPROVER)
    approverContext = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
    const approverPage = await approverContext.newPage()
    approverPage.setDefaultTimeout(120000)
    currentPage = approverPage
    await logInToAdmin(approverPage, admin, APPROVER)
    await approverPage.goto(`${admin}/crypto`)
    await approverPage.getByRole("tab", { name: /To approve/ }).click()
    const theirRow = approvalRow(approverPage, withdrawal.id)
    await theirRow.waitFor()
    const approved = nextPost(approverPage, `/admin/crypto/withdrawals/${withdrawal.id}/approve`)
    await theirRow.getByRole("button", { name: "Approve" }).click()
    const approvedAnswer = await approved
    const approvedBody = await approvedAnswer.json()
    expectEqual("the second admin's approval", { http: approvedAnswer.status(), status: approvedBody.withdrawal.status, replayed: approvedBody.replayed }, { http: 200, status: "completed", replayed: false })
    await approverPage.getByText(`Withdrawal ${withdrawal.id}: completed.`, { exact: true }).waitFor()
    await theirRow.waitFor({ state: "detached" })

    const listed = (await adminJson(approverPage, "/admin/crypto/withdrawals?limit=100")).withdrawals.filter((w) => w.id === withdrawal.id)
    expectEqual(
      "GET /admin/crypto/withdrawals' entries for it",
      listed.map((w) => ({ status: w.status, psys_cid: w.psys_cid, total_amount: w.total_amount, to: w.recipients.map((r) => r.address), requested_by: w.requested_by, approved_by: w.approved_by, sent: w.operation_id !== null })),
      [{ status: "completed", psys_cid: "BTC", total_amount: APPROVAL_AMOUNT, to: [WITHDRAW_ADDRESS], requested_by: requester.id, approved_by: approver.id, sent: true }]
    )
    // Approving it again sends nothing: answered as recorded, and the gateway holds one more cash-out, not two.
    const again = await adminFetch(approverPage, `/admin/crypto/withdrawals/${withdrawal.id}/approve`, { method: "POST", body: {} })
    expectEqual("approving it again", { http: again.status, replayed: again.body && again.body.replayed, operation_id: again.body && again.body.withdrawal.operation_id }, { http: 200, replayed: true, operation_id: listed[0].operation_id })
    expectEqual("the gateway's BTC cash-outs", await gatewayCashOuts(approverPage), cashOutsBefore + 1)
  } finally {
    currentPage = page
    if (approverContext) await approverContext.close()
    // Withdrawals go out without approval again for the checks after this one.
    await setPolicy(page, { approval_threshold: null }).catch(() => undefined)
  }
}

async function main({ admin: runAdmin = true, storefront = !process.argv.includes("--no-storefront") } = {}) {
  fs.mkdirSync(shots, { recursive: true })
  // --attach: drive an already running `npm run demo` instead of starting one (for development).
  const demo = process.argv.includes("--attach")
    ? { ...JSON.parse(fs.readFileSync(path.join(root, ".demo", "running.json"), "utf8")), attached: true }
    : await startDemo({ storefront }).then((started) => ({
        ...started,
        sandboxUrl: started.sandbox.url,
        sandboxApiKey: started.shop.secretKey,
        publishableKey: started.seeded.publishableKey,
      }))
  const browser = await launchChromium()
  let adminError = null
  try {
    if (runAdmin) {
      await adminSteps(browser, demo).catch((error) => {
        adminError = error
      })
    }
    if (storefront) {
      const { runStorefrontSteps } = require("./storefront-browser-test")
      // Each storefront step stands alone (its own browser context and cart): one failing does not stop the others.
      await runStorefrontSteps({ browser, demo, step: independent, setCurrentPage: (page) => (currentPage = page), pageErrors })
    }
  } finally {
    await browser.close()
  }
  if (adminError) throw adminError
}

async function adminSteps(browser, demo) {
  {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
    const page = await context.newPage()
    currentPage = page
    page.on("pageerror", (error) => pageErrors.push(String(error.message).slice(0, 300)))
    page.on("console", (message) => {
      if (message.type() === "error") {
        pageErrors.push(message.text().slice(0, 300))
      }
    })
    page.setDefaultTimeout(120000) // the first admin load pre-bundles the dashboard in dev mode
    const admin = `${demo.backendUrl}/app`

    await step("log in to the admin", () => logInToAdmin(page, admin, demo.admin))

    await step("the Crypto page shows balances", async () => {
      await openCryptoPage(page)
      await shot(page, "crypto-balances")
    })

    await step("a payout address is saved in the address book and usable at once (the demo's cooling-off is 0)", async () => {
      await page.goto(`${admin}/settings/crypto`)
      const book = page.getByTestId("address-book")
      await book.getByLabel("Address coin").click()
      await page.getByRole("option", { name: /^BTC\b/ }).first().click()
      await book.getByLabel("Address", { exact: true }).fill(WITHDRAW_ADDRESS)
      await book.getByLabel("Label").fill("Cold wallet")
      await book.getByRole("button", { name: "Save address" }).click()
      const row = book.getByRole("row", { name: new RegExp(WITHDRAW_ADDRESS) })
      await row.getByText("Cold wallet").waitFor()
      await row.getByText("usable", { exact: true }).waitFor()
      // The other addresses the steps below pay (mass payout, a lost answer, an exchange's payout), saved through the same route.
      await saveAddresses(page, OTHER_ADDRESSES)
    })

    await independent("the address book lists a saved address with its coin, label and when it became usable", () => addressBookListing(page, admin))

    await step("a withdrawal goes out through the confirmation prompt", async () => {
      await page.goto(`${admin}/crypto`)
      await page.getByRole("cell", { name: /^BTC\b/ }).first().waitFor()
      await page.getByRole("tab", { name: "Withdraw" }).click()
      await page.locator("#withdraw-coin").click()
      await page.getByRole("option", { name: /^BTC\b/ }).first().click()
      await page.locator("#withdraw-address").fill(WITHDRAW_ADDRESS)
      await page.locator("#withdraw-amount").fill(WITHDRAW_AMOUNT)
      // The live preview: fee and commission estimated by the gateway once the inputs settle.
      await page.waitForFunction(() => /Network fee\s+[0-9][0-9.,]* BTC/.test(document.body.innerText))
      await page.waitForFunction(() => /Commission\s+[0-9][0-9.,]* BTC/.test(document.body.innerText))
      await shot(page, "crypto-withdraw")
      await page.getByRole("button", { name: "Review and send" }).click()
      const dialog = page.getByRole("alertdialog")
      await dialog.waitFor()
      await dialog.getByText(/Total debited/).waitFor()
      await page.waitForTimeout(400) // let the prompt's open animation finish for the screenshot
      await shot(page, "crypto-withdraw-confirm")
      await dialog.getByRole("button", { name: /send|confirm|withdraw/i }).click()
      await page.getByLabel("Withdrawal result").waitFor()
      await page.getByLabel("Withdrawal result").getByText("completed").waitFor()
      await shot(page, "crypto-withdraw-result")
    })

    await step("the withdrawal is listed in operations", async () => {
      await page.getByRole("tab", { name: "Operations" }).click()
      await page.getByRole("cell", { name: /cash_out|Withdrawal/i }).first().waitFor()
      await shot(page, "crypto-operations")
    })

    await step("a deposit address is created for a customer", async () => {
      await page.getByRole("tab", { name: "Deposits" }).click()
      await page.getByRole("heading", { name: "Deposit addresses" }).waitFor()
      await page.getByLabel("Customer id (uid)").fill("cus_browser_test")
      await page.getByRole("combobox").filter({ hasText: "Select a coin" }).click()
      await page.getByRole("option", { name: /^BTC\b/ }).first().click()
      await page.getByRole("button", { name: "Create address" }).click()
      await page.getByRole("cell", { name: "cus_browser_test" }).first().waitFor()
      await shot(page, "crypto-deposits")
    })

    await step("the exchange tab estimates an exchange", async () => {
      await page.getByRole("tab", { name: "Exchange" }).click()
      await page.getByRole("heading", { name: "Exchange" }).first().waitFor()
      await estimateExchange(page)
      await page.getByLabel(/Receiving address/).waitFor()
      await shot(page, "crypto-exchange")
    })

    await moneyOutSteps(page, demo)

    await step("the order paid in crypto shows the crypto widget", async () => {
      await page.goto(`${admin}/orders/${demo.result.order_id}`)
      await page.getByText(demo.result.txn_id).first().waitFor()
      await shot(page, "order-crypto-widget")
    })

    await attentionSteps(page, admin, demo)

    await booksSteps(page, admin, demo, { step, shot, attentionCheckout })

    await step("the crypto settings page loads", async () => {
      await page.goto(`${admin}/settings/crypto`)
      await page.getByRole("heading", { name: /Crypto/ }).first().waitFor()
      await shot(page, "crypto-settings")
    })

    await orderRulesSteps(page, admin, demo, { step, shot })

    await independent("settlement rules are saved and shown as the policy in force", () => settlementRulesStep(page, admin))

    await independent("a withdrawal above the approval threshold waits in To approve; the requester cannot approve it; a second admin approves it and it is sent once", () =>
      approvalStep(browser, page, admin, demo)
    )
  }
}

// ---- "Needs attention" (docs/attention.md) ------------------------------------------------------
// Money the sandbox can produce that no order explains: an overpayment, an underpayment beyond the
// tolerance (the order placed on detection is canceled when the invoice expires), and a late payment
// (the shopper's money arriving on the ended invoice, through the sandbox's control API). Then the tab is walked and one item of each kind is resolved.

const Decimal = require("decimal.js")
const REFUND_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

const ATTENTION_SHOPPER = { first_name: "Grace", last_name: "Hopper", address_1: "Unter den Linden 5", city: "Berlin", postal_code: "10117", country_code: "de" }

/**
 * A storefront cart paid in BTC for `fraction` of its invoice (no payment when fraction is null),
 * with an address and a shipping method, so the gateway's callback can place its order.
 */
async function attentionCheckout(demo, fraction) {
  const Medusa = require("@medusajs/js-sdk").default
  const { seeded, backendUrl, sandbox, shop } = demo
  const store = new Medusa({ baseUrl: backendUrl, publishableKey: seeded.publishableKey })
  let { cart } = await store.store.cart.create({ region_id: seeded.regionId, email: "grace@example.com" })
  ;({ cart } = await store.store.cart.createLineItem(cart.id, { variant_id: seeded.variantId, quantity: 1 }))
  ;({ cart } = await store.store.cart.update(cart.id, { shipping_address: ATTENTION_SHOPPER, billing_address: ATTENTION_SHOPPER }))
  ;({ cart } = await store.store.cart.addShippingMethod(cart.id, { option_id: seeded.shippingOptionId }))
  const { payment_collection: collection } = await store.store.payment.initiatePaymentSession(cart, { provider_id: "pp_crypto_crypto", data: { psys_cid: "BTC" } })
  const txnId = collection.payment_sessions.find((s) => s.provider_id === "pp_crypto_crypto").data.txn_id
  const total = new Decimal((await sandbox.control.as(shop.secretKey).invoice(txnId)).invoice_total_sum)
  if (fraction !== null) {
    const amount = total.times(fraction).toDecimalPlaces(8, new Decimal(fraction).gt(1) ? Decimal.ROUND_UP : Decimal.ROUND_DOWN).toFixed()
    await sandbox.control.as(shop.secretKey).pay(txnId, { amount })
  }
  return { txnId, total, cartId: cart.id }
}

/**
 * Callbacks are processed after the route answers (docs/architecture.md#callback-route): waits
 * until the store shows the cart's crypto session in `sessionStatus`.
 */
async function waitForSessionStatus(demo, cartId, sessionStatus, timeoutMs = 60000) {
  let last = null
  await waitFor(
    `cart ${cartId}'s crypto session to be ${sessionStatus}`,
    async () => {
      const status = await paymentStatus(demo, cartId).catch(() => null)
      last = status ? (status.invoice?.session_status ?? null) : last
      return last === sessionStatus
    },
    timeoutMs,
    250
  ).catch(() => {
    throw new Error(`cart ${cartId}: its crypto session is still ${last} after ${timeoutMs} ms, not ${sessionStatus}`)
  })
}

async function makeAttentionItems(demo) {
  const { sandbox, shop } = demo
  await attentionCheckout(demo, "1.2")
  await attentionCheckout(demo, "0.5")
  const late = await attentionCheckout(demo, null)
  await sandbox.control.as(shop.secretKey).advanceClock(11 * 24 * 3600)
  await sandbox.callbacksIdle()
  // The expiry must be applied (the order canceled) before money reaches the invoice: only then is
  // it a late payment rather than a payment.
  await waitForSessionStatus(demo, late.cartId, "canceled")
  // The shopper's wallet sends after the end: the gateway records the money on the ended invoice
  // (cancelled → expired, docs/gateway-readings.md#money-after-the-end-of-an-invoice) and calls back.
  await sandbox.control.as(shop.secretKey).pay(late.txnId, { amount: late.total.toFixed() })
  await sandbox.callbacksIdle()
}

/** Opens an item's refund drawer, fills the shopper's address and a fee plan, confirms the prompt. */
async function refundAttentionItem(page, kind, plan, screenshot) {
  const item = page.locator(`[data-testid="attention-item"][data-kind="${kind}"]`).first()
  await item.getByRole("button", { name: "Refund in crypto…" }).click()
  const drawer = page.getByRole("dialog", { name: "Refund in crypto" })
  await drawer.waitFor()
  await drawer.getByLabel(/The shopper's BTC address/).fill(REFUND_ADDRESS)
  await drawer.getByLabel("Fee plan").click()
  await page.getByRole("option", { name: new RegExp(`^${plan} — fee`) }).click()
  if (screenshot) {
    await page.waitForTimeout(400) // let the drawer's open animation finish for the screenshot
    await shot(page, screenshot)
  }
  await drawer.getByRole("button", { name: "Review and send" }).click()
  const prompt = page.getByRole("alertdialog")
  await prompt.waitFor()
  await prompt.getByText(REFUND_ADDRESS).waitFor()
  await prompt.getByRole("button", { name: "Send" }).click()
  await drawer.waitFor({ state: "detached" })
}

async function attentionSteps(page, admin, demo) {
  await step("money no order explains shows up under Needs attention with a count, in the merchant's words", async () => {
    await makeAttentionItems(demo)
    await page.goto(`${admin}/crypto`)
    await page.getByTestId("attention-count").waitFor()
    await page.getByRole("tab", { name: /Needs attention/ }).click()
    for (const kind of ["overpaid", "underpaid", "late_payment"]) {
      const item = page.locator(`[data-testid="attention-item"][data-kind="${kind}"]`).first()
      await item.waitFor()
      // Its order as a link (a late payment's cart placed none), and its amounts in the coin and in the store's currency.
      if (kind !== "late_payment") await item.getByRole("link", { name: /^Order #\d+$/ }).waitFor()
      await item.getByText(/^[0-9.,]+ BTC \([0-9.,]+ [A-Z]{3}\)$/).first().waitFor()
    }
    await page.locator('[data-testid="attention-item"][data-kind="overpaid"]').first().getByText("The shopper of order #", { exact: false }).waitFor()
    await shot(page, "crypto-attention")
  })

  await step("an overpayment is refunded in crypto from its drawer, with a fee plan, through the confirmation prompt", async () => {
    await refundAttentionItem(page, "overpaid", "Priority", "crypto-attention-refund")
    await page.getByText("Refund sent").first().waitFor()
    await page.waitForTimeout(500) // let the toast's slide-in finish for the screenshot
    await shot(page, "crypto-attention-refunded")
  })

  await step("an underpayment beyond the tolerance is refunded in crypto", async () => {
    await refundAttentionItem(page, "underpaid", "Normal", null)
    await page.locator('[data-testid="attention-item"][data-kind="underpaid"]').waitFor({ state: "detached" })
    // The refunds' toasts leave before the next drawer opens, so they cover none of it.
    await page.getByText("Refund sent").first().waitFor({ state: "hidden", timeout: 30000 })
  })

  await step("a late payment is marked resolved with a note", async () => {
    const item = page.locator('[data-testid="attention-item"][data-kind="late_payment"]').first()
    await item.getByRole("button", { name: "Mark resolved…" }).click()
    const drawer = page.getByRole("dialog", { name: "Mark resolved" })
    await drawer.waitFor()
    await drawer.getByRole("radio", { name: /Kept/ }).click()
    await drawer.getByLabel("Why (required)").fill("The shopper asked to keep it as store credit")
    await page.waitForTimeout(400) // let the drawer's open animation finish for the screenshot
    await shot(page, "crypto-attention-resolve")
    await drawer.getByRole("button", { name: "Mark resolved" }).click()
    await page.locator('[data-testid="attention-item"][data-kind="late_payment"]').waitFor({ state: "detached" })
    await page.getByText("Marked resolved").first().waitFor()
    await page.waitForTimeout(500) // let the toast's slide-in finish for the screenshot
    await shot(page, "crypto-attention-resolved")
  })
}

function run(options) {
  return main(options)
    .then(
      () => 0,
      (error) => {
        process.stderr.write(`${error && error.stack ? error.stack : error}\n`)
        return 1
      }
    )
    .then(async (code) => {
      const passed = results.filter((r) => r.ok).length
      const failed = results.length - passed + (code !== 0 && results.every((r) => r.ok) ? 1 : 0)
      process.stdout.write(`browser: ${writeResults("browser", { passed, failed, steps: results })}\n`)
      if (process.argv.includes("--attach")) {
        process.exit(failed > 0 ? 1 : 0)
      }
      await shutdown(failed > 0 ? 1 : 0)
    })
}

module.exports = { main: run }

if (require.main === module) {
  run()
}
