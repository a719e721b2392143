// The browser the checks drive (Debian's Chromium through playwright-core: Playwright cannot download
// its own here) and the admin steps more than one check takes: log in, open the Crypto page. Used by
// scripts/browser-test.js and scripts/production-check.js.
const { chromium } = require("playwright-core")

/** Headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium). */
function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  })
}

/** Logs into the admin at `adminUrl` (…/app) with e-mail and password; leaves the page past the login. */
async function logInToAdmin(page, adminUrl, { email, password }) {
  await page.goto(`${adminUrl}/login`)
  await page.getByPlaceholder("Email").fill(email)
  await page.getByPlaceholder("Password").fill(password)
  await page.getByRole("button", { name: "Continue with Email" }).click()
  await page.waitForURL((url) => !url.pathname.endsWith("/login"))
}

/** Opens the admin's Crypto page from the sidebar and waits for the gateway's balances (a BTC row). */
async function openCryptoPage(page) {
  await page.getByRole("link", { name: "Crypto" }).first().click()
  await page.getByRole("heading", { name: "Crypto", level: 1 }).waitFor()
  await page.getByRole("cell", { name: /^BTC\b/ }).first().waitFor()
}

module.exports = { launchChromium, logInToAdmin, openCryptoPage }
