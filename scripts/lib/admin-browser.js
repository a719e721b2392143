// The browser the checks drive (Debian's Chromium through playwright-core: Playwright cannot download
// its own here) and the admin steps more than one check takes: log in, open the Crypto page, call the
// admin API with the page's session, add a second admin. Used by scripts/browser-test.js and
// scripts/production-check.js.
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

/**
 * An admin API call made by the page, with its session cookie (as the admin's own calls are):
 * answers `{ status, body }` (body: the parsed JSON, null when there is none).
 */
function adminFetch(page, path, { method = "GET", body } = {}) {
  return page.evaluate(
    async ({ path, method, body }) => {
      const response = await fetch(path, {
        method,
        credentials: "include",
        ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      })
      return { status: response.status, body: await response.json().catch(() => null) }
    },
    { path, method, body }
  )
}

/** `adminFetch` that throws, naming the call and its answer, unless the status is one of `ok`; answers the body. */
async function adminJson(page, path, { ok = [200], ...options } = {}) {
  const { status, body } = await adminFetch(page, path, options)
  if (!ok.includes(status)) throw new Error(`${options.method || "GET"} ${path} answered ${status}: ${JSON.stringify(body)}`)
  return body
}

/**
 * Another admin user of the store at `backendUrl`, through Medusa's invite API: `inviter` (an admin's
 * e-mail and password) invites `email`, which registers an e-mail/password identity and accepts the
 * invite. For what one admin may not do alone (approve their own withdrawal). Answers the user
 * (`id`, `email`); one that exists already (a run against a running demo) is answered as it is.
 */
async function ensureAdminUser(backendUrl, inviter, { email, password, first_name, last_name }) {
  const call = async (path, { token, body } = {}) => {
    const response = await fetch(`${backendUrl}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: await response.json().catch(() => null) }
  }
  const expect = (what, answer, status = 200) => {
    if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    return answer.body
  }
  // Its identity: logged into when it exists (a user already, or registered by an earlier run that stopped before accepting), registered otherwise.
  const login = await call("/auth/user/emailpass", { body: { email, password } })
  const identity = login.status === 200 ? login.body.token : expect(`registering ${email}`, await call("/auth/user/emailpass/register", { body: { email, password } })).token
  const me = await call("/admin/users/me", { token: identity })
  if (me.status === 200) return me.body.user
  const { token: adminToken } = expect(`logging in as ${inviter.email}`, await call("/auth/user/emailpass", { body: inviter }))
  const { invite } = expect(`inviting ${email}`, await call("/admin/invites", { token: adminToken, body: { email } }))
  const { user } = expect(`accepting the invite of ${email}`, await call(`/admin/invites/accept?token=${encodeURIComponent(invite.token)}`, { token: identity, body: { email, first_name, last_name } }))
  return user
}

module.exports = { launchChromium, logInToAdmin, openCryptoPage, adminFetch, adminJson, ensureAdminUser }
