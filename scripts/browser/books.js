// The merchant's books in a real browser (docs/books.md): the accounting export downloaded from the
// Crypto page and read back, and the three charts of the Charts tab drawn from the payments the
// earlier steps made (the demo's order, the attention steps' over- and underpayments), each with its
// table view, in the light and the dark theme. Run by scripts/browser-test.js after the attention steps.
const fs = require("fs")
const { parse } = require("csv-parse/sync")

/** Reads back a downloaded export: its rows, and the closing totals rows (`kind` `total:<kind>`). */
function readCsv(file) {
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true })
  return { rows: rows.filter((row) => !row.kind.startsWith("total:")), totals: rows.filter((row) => row.kind.startsWith("total:")) }
}

/**
 * `attentionCheckout(demo, fraction)` (scripts/browser-test.js) pays a storefront cart for `fraction`
 * of its invoice: the charts step makes one overpayment the attention steps did not resolve.
 */
/** Recharts animates a chart in (1.5 s) and a switch slides: screenshots wait for both to end, and for a toast to leave. */
async function settle(page) {
  await page.waitForTimeout(1700)
  await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached", timeout: 10000 }).catch(() => undefined)
}

async function booksSteps(page, admin, demo, { step, shot, attentionCheckout }) {
  await step("the accounting export downloads this month's crypto amounts as CSV, with totals", async () => {
    await page.goto(`${admin}/crypto`)
    await page.getByTestId("books-export").click()
    const drawer = page.getByRole("dialog")
    await drawer.getByText("This month", { exact: true }).click()
    await drawer.getByText("CSV", { exact: true }).click()
    await page.waitForTimeout(400) // the drawer's open animation, for the screenshot
    await shot(page, "crypto-export")
    const [download] = await Promise.all([page.waitForEvent("download"), drawer.getByRole("button", { name: "Download" }).click()])
    const file = await download.path()
    const { rows, totals } = readCsv(file)
    const payment = rows.find((row) => row.kind === "payment" && row.reference === demo.result.txn_id)
    if (!payment) throw new Error(`the export has no payment row for the demo's invoice ${demo.result.txn_id}`)
    for (const column of ["amount", "fiat_value", "rate"]) {
      if (!/^\d+(\.\d+)?$/.test(payment[column])) throw new Error(`the demo's payment row has ${column} "${payment[column]}", not an exact decimal`)
    }
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(payment.created_at)) throw new Error(`created_at "${payment.created_at}" is not UTC ISO 8601`)
    if (!totals.some((row) => row.kind === "total:payment" && row.psys_cid === payment.psys_cid)) throw new Error("the export has no payment total for the demo's coin")
  })

  await step("the Charts tab draws received volume, balances and Needs attention, each with its table", async () => {
    // The admin scrolls inside its own layout: a taller window shows all three charts in one screenshot.
    await page.setViewportSize({ width: 1440, height: 1500 })
    // An overpayment left open, so the Needs-attention chart has an item (the attention steps resolved theirs).
    await attentionCheckout(demo, "1.2")
    await demo.sandbox.callbacksIdle()
    const deadline = Date.now() + 60000
    for (;;) {
      await page.goto(`${admin}/crypto`)
      await page.getByRole("tab", { name: "Charts" }).click()
      const bars = page.getByTestId("chart-attention-plot").locator(".recharts-bar-rectangle")
      if (await bars.first().waitFor({ timeout: 5000 }).then(() => true, () => false)) break
      if (Date.now() > deadline) throw new Error("the Needs-attention chart shows no item 60 s after an overpayment")
    }
    const volume = page.getByTestId("chart-volume")
    await volume.getByTestId("chart-volume-plot").locator(".recharts-bar-rectangle").first().waitFor()
    const balances = page.getByTestId("chart-balances")
    const record = balances.getByRole("button", { name: "Record today's balances" })
    if (await record.isVisible()) await record.click()
    // One day of snapshots draws dots, no visible line: the line layer is there, its dots in their own layer.
    await balances.getByTestId("chart-balances-plot").locator(".recharts-line").first().waitFor({ state: "attached" })
    await balances.getByTestId("chart-balances-plot").locator(".recharts-line-dot, .recharts-dot").first().waitFor()
    const attention = page.getByTestId("chart-attention")
    await attention.getByTestId("chart-attention-plot").locator(".recharts-bar-rectangle").first().waitFor()
    // The age legend reads youngest to oldest, as the buckets do (not sorted by label).
    const ages = await attention.locator(".recharts-legend-item-text").allInnerTexts()
    if (ages.join(" | ") !== "Under 1 day | 1–7 days | 7–30 days | Over 30 days") throw new Error(`the Needs-attention legend reads ${ages.join(" | ")}`)
    await settle(page)
    await shot(page, "crypto-charts")
    for (const id of ["chart-volume", "chart-balances", "chart-attention"]) {
      await page.getByTestId(id).getByRole("switch").click()
      await page.getByTestId(`${id}-table`).getByRole("row").nth(1).waitFor()
    }
    await page.getByTestId("chart-volume-table").getByRole("cell", { name: /^BTC\b/ }).first().waitFor()
    await page.getByTestId("chart-balances-table").getByRole("cell", { name: /BTC/ }).first().waitFor()
    await settle(page)
    await shot(page, "crypto-charts-tables")
  })

  await step("the charts follow the admin's dark theme", async () => {
    for (const id of ["chart-volume", "chart-balances", "chart-attention"]) {
      await page.getByTestId(id).getByRole("switch").click()
    }
    await page.evaluate(() => document.documentElement.classList.add("dark"))
    await page.getByTestId("chart-volume-plot").locator(".recharts-bar-rectangle").first().waitFor()
    await settle(page)
    await shot(page, "crypto-charts-dark")
    await page.evaluate(() => document.documentElement.classList.remove("dark"))
    await page.setViewportSize({ width: 1440, height: 1000 })
  })
}

module.exports = { booksSteps }
