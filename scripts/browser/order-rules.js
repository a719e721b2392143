// Order rules and protect order status in the admin (docs/books.md#order-rules): Settings → Crypto,
// add the rule "on detection below 500 <region currency> for LTC and USDT_TRX", save, see it listed in
// words and in the Changes list (who, when, what). Wired into scripts/browser-test.js's admin steps.

/** The demo region's currency (scripts/demo.js seeds EUR). */
const regionCurrency = (demo) => String(demo.currency || demo.regionCurrency || "EUR").toUpperCase()

async function orderRulesSteps(page, admin, demo, { step, shot }) {
  const currency = regionCurrency(demo)
  const words = `Place the order on detection · for LTC, USDT_TRX · below 500 ${currency}`

  await step("Settings → Crypto shows the order rules, protect order status and the changes list", async () => {
    await page.goto(`${admin}/settings/crypto`)
    await page.getByTestId("order-rules").waitFor()
    await page.getByTestId("protect-order-status").waitFor()
    await page.getByTestId("settings-changes").waitFor()
  })

  await step(`an order rule "on detection below 500 ${currency} for LTC and USDT_TRX" is added and saved`, async () => {
    const rules = page.getByTestId("order-rules")
    await rules.getByRole("button", { name: "Add rule" }).click()
    const form = page.getByTestId("order-rule-form")
    await form.waitFor()
    await form.getByRole("switch", { name: "Rule for LTC" }).click()
    await form.getByRole("switch", { name: "Rule for USDT_TRX" }).click()
    await form.locator("#rule-amount").fill("500")
    await form.locator("#rule-currency").fill(currency)
    await form.getByText(words).waitFor()
    await form.getByRole("button", { name: "Keep rule" }).click()
    await rules.getByTestId("order-rule").filter({ hasText: words }).waitFor()
    const save = page.getByRole("button", { name: "Save", exact: true })
    await save.click()
    await page.getByText("Crypto settings saved").first().waitFor()
    // Saved: nothing left to save until the next change.
    if (!(await save.isDisabled())) throw new Error("Save is still enabled with nothing changed since the save")
  })

  await step("the saved rule is listed in words and the save is in the Changes list", async () => {
    await page.reload()
    await page.getByTestId("order-rule").filter({ hasText: words }).waitFor()
    const changes = page.getByTestId("settings-changes")
    await changes.getByText(/Order rules: .*→ .*below 500/).first().waitFor()
    // The save sent only what changed: the fields left alone still follow medusa-config.ts.
    const newest = await changes.locator("li").first().innerText()
    if (/Accepted coins|Invoice lifetime|Underpayment tolerance|Protect order status/.test(newest)) {
      throw new Error(`the save of one rule recorded fields nobody changed: ${newest}`)
    }
    if (demo.admin && demo.admin.email) await changes.getByText(demo.admin.email).first().waitFor()
    await shot(page, "crypto-order-rules")
  })
}

module.exports = { orderRulesSteps }
