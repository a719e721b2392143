#!/usr/bin/env node
// A shopper paying with crypto in a real browser: Playwright (playwright-core) drives Debian's Chromium
// against the example storefront (examples/storefront) beside the demo store (scripts/demo.js). The
// gateway's side (the shopper's wallet) is the sandbox's control API. Screenshots go to
// docs/screenshots/storefront-*.png (the README shows them).
// `npm run test:browser` runs these steps after the admin's (scripts/browser-test.js); alone:
// `node scripts/storefront-browser-test.js` (starts a demo) or `-- --attach` (a running `npm run demo`).
const fs = require("fs")
const path = require("path")
const Decimal = require("decimal.js")
const { paymentStatus } = require("./demo-checkout")
const { root, waitFor } = require("./lib/processes")

/** A customer's own BTC address (bech32) for the refund they claim. */
const REFUND_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"

const shots = path.join(root, "docs", "screenshots")
const CART_COOKIE = "_medusa_cart_id"
const ADDRESS = { email: "shopper@example.com", first_name: "Ada", last_name: "Lovelace", address_1: "Teststr. 1", city: "Berlin", postal_code: "10115" }

function sandboxClient(demo) {
  return async (route, params = {}) => {
    const url = new URL(`${demo.sandboxUrl}/_sandbox${route}`)
    url.searchParams.set("api_key", demo.sandboxApiKey)
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) })
    if (!response.ok) throw new Error(`sandbox ${route} answered ${response.status}: ${await response.text()}`)
    return (await response.json()).data
  }
}

/** After the order: the storefront keeps no cart cookie, so its cart is empty ("Cart (0)", not the bought item). */
async function expectNoCart(context) {
  const left = (await context.cookies()).find((candidate) => candidate.name === CART_COOKIE)
  if (left) throw new Error(`the cart cookie is still set after the order (${left.value}): the bought item stays in the cart`)
}

async function cartIdOf(context) {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === CART_COOKIE)
  if (!cookie) throw new Error("the storefront set no cart cookie")
  return cookie.value
}

/** Product → cart → address → delivery: leaves the page on the payment step. */
async function toPaymentStep(page, storefrontUrl) {
  await page.goto(storefrontUrl)
  await page.getByRole("button", { name: "Add to cart" }).first().click()
  await page.waitForURL(/\/cart$/)
  await page.getByRole("link", { name: "Checkout" }).click()
  for (const [name, value] of Object.entries(ADDRESS)) {
    await page.locator(`[name="${name}"]`).fill(value)
  }
  await page.getByRole("button", { name: "Continue to delivery" }).click()
  await page.getByRole("button", { name: "Continue to payment" }).click()
  await page.getByRole("heading", { name: "Payment" }).waitFor()
}

/** On the payment step: pick the provider (by its title) and the coin, go to review. */
async function choosePayment(page, providerTitle, coin) {
  await page.getByLabel(providerTitle).check()
  await page.locator(`input[name="crypto-coin"][value="${coin}"]`).check()
  await page.getByRole("button", { name: "Continue to review" }).click()
  await page.getByRole("heading", { name: "Review" }).waitFor()
}

const HOSTED = /payment page/
const WHITE_LABEL = /pay here/
const ORDER_CONFIRMED = /\/order\/[^/]+\/confirmed$/

/** Waits until the white-label panel shows an address other than `old` (a new invoice's) and answers it. */
function newAddressShown(page, old, what) {
  return waitFor(what, async () => {
    const text = ((await page.locator(".mpc-panel-address code").first().textContent().catch(() => "")) || "").trim()
    return text !== "" && text !== old ? text : null
  })
}

async function axeScan(page, label) {
  await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") })
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] })
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }))
  })
  const serious = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
  if (serious.length > 0) {
    throw new Error(`${label}: axe found ${serious.map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes})`).join(", ")}`)
  }
  return violations
}

/**
 * The storefront steps. `step(name, fn)` records each as passed or failed (scripts/browser-test.js);
 * `newContext(options)` opens a browser context the caller closes.
 */
async function runStorefrontSteps({ browser, demo, step: record, setCurrentPage, pageErrors }) {
  fs.mkdirSync(shots, { recursive: true })
  // STOREFRONT_ONLY=<text>: run only the steps whose name contains it (while working on one).
  const only = process.env.STOREFRONT_ONLY
  const step = (name, fn) => (only && !name.includes(only) ? Promise.resolve() : record(name, fn))
  const sf = demo.storefrontUrl
  const control = sandboxClient(demo)
  const shot = (page, name) => page.screenshot({ path: path.join(shots, `storefront-${name}.png`), fullPage: true })
  /** The shopper's wallet pays invoice `txnId` (the sandbox's control API; `params`: amount, confirmations). */
  const pay = (txnId, params) => control(`/invoices/${encodeURIComponent(txnId)}/pay`, params)
  /** What the gateway asks for invoice `txnId` in all (invoice_total_sum), from the sandbox. */
  const invoiceTotal = async (txnId) => new Decimal((await demo.sandbox.control.as(demo.shop.secretKey).invoice(txnId)).invoice_total_sum)

  /** Product → … → review with `provider` and `coin` (and the white-label panel shown); answers the cart id and its invoice. */
  async function checkout(page, context, provider, coin) {
    await toPaymentStep(page, sf)
    await choosePayment(page, provider, coin)
    if (provider === WHITE_LABEL) await page.locator(".mpc-panel").waitFor()
    const cartId = await cartIdOf(context)
    return { cartId, invoice: (await paymentStatus(demo, cartId)).invoice }
  }

  /**
   * On the gateway's hosted invoice page: pays in full, the confirmations arrive, and its "To the site"
   * link brings the shopper back to the confirmed order. `screenshot` names a shot of the unpaid page.
   */
  async function payOnGatewayPage(page, screenshot = null) {
    await page.waitForURL((url) => url.href.startsWith(demo.sandboxUrl))
    if (screenshot) await shot(page, screenshot)
    await page.getByRole("button", { name: "Pay in full" }).click()
    await page.locator("#status", { hasText: "pending" }).waitFor()
    await page.getByRole("button", { name: "Confirmations arrive" }).click()
    // The page's "To the site" link gets its href (the plugin's return URL) once the invoice is paid.
    const toSite = page.locator('#to-site[href*="/checkout/crypto/return"]')
    await toSite.waitFor()
    await toSite.click()
    await page.waitForURL(ORDER_CONFIRMED, { timeout: 90000 })
  }

  async function withShopper(options, fn) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options })
    const page = await context.newPage()
    page.setDefaultTimeout(60000)
    page.on("pageerror", (error) => pageErrors.push(String(error.message).slice(0, 300)))
    setCurrentPage(page)
    try {
      await fn({ context, page })
    } catch (error) {
      // The context closes below: keep what the shopper saw now.
      const file = path.join(root, ".test-results", `storefront-failure-${Date.now()}.png`)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined)
      error.message = `${error.message} (screenshot ${path.relative(root, file)}, url ${page.url()})`
      throw error
    } finally {
      setCurrentPage(null)
      await context.close()
    }
  }

  await step("storefront: hosted flow: pay on the sandbox page, come back to a confirmed order and an empty cart", () =>
    withShopper({}, async ({ context, page }) => {
      await toPaymentStep(page, sf)
      await shot(page, "payment-step")
      await choosePayment(page, HOSTED, "BTC")
      await page.getByRole("button", { name: "Pay with crypto" }).click()
      await payOnGatewayPage(page, "hosted-invoice")
      await page.getByTestId("order-confirmed").waitFor()
      await expectNoCart(context)
      await shot(page, "order-confirmed")
    })
  )

  await step("storefront: the shopper never returns; the callback places the order and a later return lands on it", () =>
    withShopper({}, async ({ context, page }) => {
      const { cartId, invoice } = await checkout(page, context, HOSTED, "LTC")
      await pay(invoice.txn_id)
      const orderId = await waitFor("the callback to place the order", async () => (await paymentStatus(demo, cartId)).order_id)
      await page.goto(`${sf}/checkout/crypto/return?cart_id=${encodeURIComponent(cartId)}`)
      await page.waitForURL(new RegExp(`/order/${orderId}/confirmed$`))
      await page.getByTestId("order-confirmed").waitFor()
      await expectNoCart(context)
    })
  )

  await step("storefront: white-label: copy buttons, QR, countdown, detection with confirmations, paid", () =>
    withShopper({ permissions: ["clipboard-read", "clipboard-write"] }, async ({ context, page }) => {
      await toPaymentStep(page, sf)
      await page.clock.install()
      await choosePayment(page, WHITE_LABEL, "LTC")
      const panel = page.locator(".mpc-panel")
      await panel.waitFor()
      const address = (await panel.locator(".mpc-panel-address code").textContent()).trim()
      const amount = await panel.locator("[data-amount]").getAttribute("data-amount")
      const cartId = await cartIdOf(context)
      const { invoice } = await paymentStatus(demo, cartId)
      if (address !== invoice.address || amount !== invoice.amount) {
        throw new Error(`the panel shows ${amount} to ${address}; the store says ${invoice.amount} to ${invoice.address}`)
      }
      await page.getByRole("img", { name: /QR code: You send/ }).waitFor()

      await page.getByRole("button", { name: "Copy amount" }).click()
      if ((await page.evaluate(() => navigator.clipboard.readText())) !== amount) throw new Error("Copy amount did not copy the exact amount")
      await page.getByRole("button", { name: "Copy address" }).click()
      if ((await page.evaluate(() => navigator.clipboard.readText())) !== address) throw new Error("Copy address did not copy the address")

      const countdown = panel.locator(".mpc-panel-countdown")
      const before = await countdown.textContent()
      await page.clock.fastForward("02:00")
      await waitFor("the countdown to move", async () => (await countdown.textContent()) !== before, 10000)
      await shot(page, "white-label-panel")

      await pay(invoice.txn_id, { confirmations: 1 })
      await page.clock.fastForward("00:30")
      await panel.locator('[data-status="detected"]').or(page.locator('.mpc-panel[data-status="detected"]')).first().waitFor()
      await panel.locator(".mpc-panel-confirmations").waitFor()
      await shot(page, "white-label-detected")
      await control(`/invoices/${encodeURIComponent(invoice.txn_id)}/confirm`)
      await page.clock.fastForward("00:30")
      await page.waitForURL(ORDER_CONFIRMED, { timeout: 90000 })
      await page.getByTestId("order-confirmed").waitFor()
      await shot(page, "white-label-order")
      await axeScan(page, "order page")
    })
  )

  await step("storefront: a changed coin makes a new invoice", () =>
    withShopper({}, async ({ context, page }) => {
      const { cartId, invoice: first } = await checkout(page, context, WHITE_LABEL, "BTC")
      await page.locator(".mpc-panel .mpc-panel-address code").waitFor()
      await page.getByRole("link", { name: "change" }).click()
      await choosePayment(page, WHITE_LABEL, "USDT_TRX")
      await page.locator(".mpc-panel .mpc-panel-address code").waitFor()
      const second = (await paymentStatus(demo, cartId)).invoice
      if (second.txn_id === first.txn_id || second.psys_cid !== "USDT_TRX" || second.attempt !== first.attempt + 1) {
        throw new Error(`expected a new USDT_TRX invoice, got ${JSON.stringify({ first: first.txn_id, second: second.txn_id, coin: second.psys_cid })}`)
      }
      const shown = (await page.locator(".mpc-panel-address code").textContent()).trim()
      if (shown !== second.address) throw new Error("the panel still shows the old invoice's address")
    })
  )

  await step("storefront: white-label underpayment shows the amount still due", () =>
    withShopper({}, async ({ context, page }) => {
      const { invoice } = await checkout(page, context, WHITE_LABEL, "BTC")
      await pay(invoice.txn_id, { amount: "0.00001", confirmations: 2 })
      await page.locator('.mpc-panel[data-status="underpaid"]').waitFor({ timeout: 60000 })
      await page.locator(".mpc-panel-underpaid").waitFor()
      await shot(page, "white-label-underpaid")
    })
  )

  await step("storefront: an invoice that expired short offers the rest, whose top-up is paid and completes the order", () =>
    withShopper({}, async ({ context, page }) => {
      const { cartId, invoice: first } = await checkout(page, context, WHITE_LABEL, "LTC")
      const half = new Decimal(first.amount).times("0.5").toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed()
      await pay(first.txn_id, { amount: half })
      await control("/clock/advance", { seconds: 7200 })
      // The invoice ended short (docs/attention.md#paying-the-rest): received, still due, one button.
      await page.locator('.mpc-panel[data-status="rest_due"]').waitFor({ timeout: 90000 })
      const summary = (await page.locator(".mpc-panel-rest").textContent()) || ""
      const due = new Decimal(first.amount).minus(half).toFixed()
      if (!summary.includes(half) || !summary.includes(due)) throw new Error(`the panel says "${summary}"; received ${half}, due ${due}`)
      await shot(page, "white-label-rest-due")
      await page.getByRole("button", { name: "Pay the rest" }).click()
      const shown = await newAddressShown(page, first.address, "the panel to show the top-up's address")
      const { invoice } = await paymentStatus(demo, cartId)
      const topUp = invoice.rest && invoice.rest.top_up
      if (!topUp || topUp.address !== shown || topUp.order_number !== `${first.order_number}-rest` || topUp.psys_cid !== "LTC") {
        throw new Error(`the panel shows ${shown}; the store's top-up is ${JSON.stringify(topUp)}`)
      }
      const asked = await page.locator(".mpc-panel-amount [data-amount]").getAttribute("data-amount")
      if (asked !== topUp.amount) throw new Error(`the panel asks ${asked}; the top-up asks ${topUp.amount}`)
      await shot(page, "white-label-rest-invoice")
      await pay(topUp.txn_id)
      await page.waitForURL(ORDER_CONFIRMED, { timeout: 90000 })
      const after = await paymentStatus(demo, cartId)
      if (!after.order_id || after.invoice.session_status !== "captured") throw new Error(`after the rest: ${JSON.stringify({ order: after.order_id, session: after.invoice.session_status })}`)
      await expectNoCart(context)
    })
  )

  await step("storefront: hosted: an invoice that expired short offers the rest on the return page; the rest's payment page is paid and the order confirmed", () =>
    withShopper({}, async ({ context, page }) => {
      const { cartId, invoice: first } = await checkout(page, context, HOSTED, "LTC")
      const total = await invoiceTotal(first.txn_id)
      await pay(first.txn_id, { amount: total.times("0.5").toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed() })
      await control("/clock/advance", { seconds: 7200 })
      // The shopper comes back (the return link of the "pay the rest" e-mail): the rest, not the order placed on detection.
      await page.goto(`${sf}/checkout/crypto/return?cart_id=${encodeURIComponent(cartId)}`)
      await page.locator('.mpc-result[data-status="rest_due"]').waitFor({ timeout: 90000 })
      await page.locator(".mpc-result-rest").waitFor()
      await shot(page, "hosted-rest-due")
      await page.getByRole("button", { name: "Pay the rest" }).click()
      const restPage = page.getByRole("link", { name: "Pay the rest on the payment page" })
      await restPage.waitFor()
      const { invoice } = await paymentStatus(demo, cartId)
      const topUp = invoice.rest && invoice.rest.top_up
      if (!topUp || (await restPage.getAttribute("href")) !== topUp.invoice_url) throw new Error(`the link goes to ${await restPage.getAttribute("href")}; the top-up is ${JSON.stringify(topUp)}`)
      await restPage.click()
      await payOnGatewayPage(page)
      await expectNoCart(context)
    })
  )

  await step("storefront: a refund the shopper claims: the link's page shows it, refuses another network's address, and sends once to the shopper's own", () =>
    withShopper({}, async ({ context, page }) => {
      // An order paid 20 % over in BTC: the shopper's checkout, the wallet through the sandbox.
      const { cartId, invoice } = await checkout(page, context, WHITE_LABEL, "BTC")
      const total = await invoiceTotal(invoice.txn_id)
      await pay(invoice.txn_id, { amount: total.times("1.2").toDecimalPlaces(8, Decimal.ROUND_UP).toFixed() })
      const orderId = await waitFor("the order of the overpaid cart", async () => (await paymentStatus(demo, cartId)).order_id)
      await waitFor("the overpayment recorded", async () => (await paymentStatus(demo, cartId)).invoice.overpaid_amount)

      // The merchant starts the refund without an address and sends the customer the link.
      const login = await fetch(`${demo.backendUrl}/auth/user/emailpass`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: process.env.DEMO_ADMIN_EMAIL || "admin@example.com", password: process.env.DEMO_ADMIN_PASSWORD || "supersecret" }),
      })
      const admin = { "content-type": "application/json", authorization: `Bearer ${(await login.json()).token}` }
      const created = await fetch(`${demo.backendUrl}/admin/crypto/refund-claims`, { method: "POST", headers: admin, body: JSON.stringify({ order_id: orderId, kind: "overpayment" }) })
      if (!created.ok) throw new Error(`the claim was refused: ${created.status} ${await created.text()}`)
      const { link, claim } = await created.json()
      if (!link.startsWith(sf)) throw new Error(`the claim link ${link} does not go to the storefront ${sf}`)

      await page.goto(link)
      const form = page.locator('.mpc-refund[data-status="waiting"]')
      await form.waitFor()
      const shownAmount = await page.locator(".mpc-refund-amount").getAttribute("data-amount")
      if (shownAmount !== claim.amount) throw new Error(`the page shows ${shownAmount}; the claim is ${claim.amount}`)
      const input = page.locator(".mpc-refund-input")
      await input.fill("0x52908400098527886e0f7030069857d2e4169ee7")
      await input.blur()
      await page.locator('.mpc-refund-error[data-reason="network"]').waitFor()
      await shot(page, "refund-claim-wrong-network")
      await input.fill(REFUND_ADDRESS)
      await input.blur()
      await page.locator(".mpc-refund-confirm input[type=checkbox]").check()
      await shot(page, "refund-claim")
      await page.locator(".mpc-refund-submit").click()
      await page.locator('.mpc-refund[data-status="sent"], .mpc-refund[data-status="sending"]').waitFor({ timeout: 60000 })
      await shot(page, "refund-claim-sent")
      const listed = await (await fetch(`${demo.backendUrl}/admin/crypto/refund-claims?order_id=${encodeURIComponent(orderId)}`, { headers: admin })).json()
      const mine = listed.claims.find((candidate) => candidate.id === claim.id)
      if (!mine || mine.address !== REFUND_ADDRESS || !["sent", "sending"].includes(mine.status)) throw new Error(`the merchant sees ${JSON.stringify(mine)}`)
      // The link is single use: opening it again shows the refund sent, with no form.
      await page.goto(link)
      await page.locator('.mpc-refund[data-status="sent"], .mpc-refund[data-status="sending"]').waitFor()
      if ((await page.locator(".mpc-refund-form").count()) !== 0) throw new Error("the used link still offers the form")
    })
  )

  await step("storefront: white-label review page has no serious axe violations; keyboard, mobile and dark mode", () =>
    withShopper({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: "dark" }, async ({ page }) => {
      await toPaymentStep(page, sf)
      // Keyboard only: the coin picker is a native radio group; arrows move, the form submits on Enter.
      await page.getByLabel(WHITE_LABEL).focus()
      await page.keyboard.press("Space")
      await page.locator('input[name="crypto-coin"]').first().focus()
      await page.keyboard.press("ArrowDown")
      const chosen = await page.locator('input[name="crypto-coin"]:checked').getAttribute("value")
      if (!chosen) throw new Error("the arrow key chose no coin")
      await page.keyboard.press("Tab")
      await waitFor("focus on Continue to review", () => page.evaluate(() => document.activeElement && document.activeElement.textContent === "Continue to review"), 5000)
      await page.keyboard.press("Enter")
      await page.getByRole("heading", { name: "Review" }).waitFor()
      await page.locator(".mpc-panel .mpc-panel-address code").waitFor()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      if (overflow > 1) throw new Error(`the review page scrolls sideways by ${overflow}px on a phone`)
      await shot(page, "white-label-mobile-dark")
      await axeScan(page, "white-label review")
    })
  )

  await step("storefront: an expired invoice gets a new one on the same cart, which is paid", () =>
    withShopper({}, async ({ context, page }) => {
      const { cartId, invoice: first } = await checkout(page, context, WHITE_LABEL, "LTC")
      await control("/clock/advance", { seconds: 7200 })
      // An unpaid invoice that runs out of time ends `expired` or, with nothing received, `cancelled` (spec §3).
      await page.locator('.mpc-panel[data-status="expired"], .mpc-panel[data-status="canceled"]').waitFor({ timeout: 90000 })
      await shot(page, "white-label-expired")
      await page.getByRole("button", { name: "Get a new invoice" }).click()
      const shown = await newAddressShown(page, first.address, "the panel to show a new address")
      const second = (await paymentStatus(demo, cartId)).invoice
      if (second.txn_id === first.txn_id || second.address !== shown || second.attempt !== first.attempt + 1) {
        throw new Error(`the panel shows ${shown}; the store's active invoice is ${JSON.stringify({ txn: second.txn_id, attempt: second.attempt, address: second.address })}`)
      }
      await pay(second.txn_id)
      await page.waitForURL(ORDER_CONFIRMED, { timeout: 90000 })
    })
  )
}

module.exports = { runStorefrontSteps }

if (require.main === module) {
  require("./browser-test").main({ admin: false, storefront: true })
}
