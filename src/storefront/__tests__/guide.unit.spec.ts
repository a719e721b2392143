import fs from "fs"
import path from "path"
import { STARTER_BACKEND_URL_VARIABLES } from "../server"

/**
 * docs/storefront.md and examples/storefront (which follows it): every path that ends on the order
 * page removes the cart cookie first, or the bought item stays in the cart ("Cart (1)" after the
 * order). Next 15 lets a Server Component page read cookies but not change them, so such a page
 * never redirects to the order page itself: a route handler or a server action does, after
 * removing the cookie.
 */
const root = path.resolve(__dirname, "../../..")
const guide = fs.readFileSync(path.join(root, "docs/storefront.md"), "utf8")
const guideBlocks = [...guide.matchAll(/```(?:ts|tsx)\n([\s\S]*?)```/g)].map((match, index) => ({ name: `docs/storefront.md block ${index + 1}`, text: match[1] ?? "" }))

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry.name) ? [full] : []
  })
}
const exampleFiles = sourceFiles(path.join(root, "examples/storefront/src")).map((file) => ({
  name: path.relative(root, file),
  text: fs.readFileSync(file, "utf8"),
}))

const ORDER_REDIRECT = /\bredirect\(\s*`[^`]*\/order\//
const isServerComponentPage = (text: string): boolean =>
  /export default async function/.test(text) && !/^"use (server|client)"/m.test(text) && !/export async function (GET|POST)\b/.test(text)

/** The order-page redirects of a source that do not follow `await removeCartId()` (or an `await clear…Cart…(` helper that calls it). */
function redirectsKeepingTheCart(text: string): string[] {
  const lines = text.split("\n")
  return lines.flatMap((line, index) => {
    if (!ORDER_REDIRECT.test(line)) return []
    const before = lines.slice(Math.max(0, index - 4), index).join("\n")
    const cleared = /await removeCartId\(\)/.test(before) || (/await clear\w*Cart\w*\(/.test(before) && /await removeCartId\(\)/.test(text))
    return cleared ? [] : [line.trim()]
  })
}

describe.each([
  ["docs/storefront.md", guideBlocks],
  ["examples/storefront", exampleFiles],
])("%s: the cart cookie goes before the order page", (_, sources) => {
  it("has order-page redirects to check", () => {
    expect(sources.some((source) => ORDER_REDIRECT.test(source.text))).toBe(true)
  })

  it("no Server Component page redirects to the order page (it cannot remove the cookie)", () => {
    const offenders = sources.filter((source) => isServerComponentPage(source.text) && ORDER_REDIRECT.test(source.text)).map((source) => source.name)
    expect(offenders).toEqual([])
  })

  it("every redirect to the order page follows await removeCartId()", () => {
    const offenders = sources.flatMap((source) => redirectsKeepingTheCart(source.text).map((line) => `${source.name}: ${line}`))
    expect(offenders).toEqual([])
  })
})

/**
 * docs/storefront.md, "What differs between the two starters" and step 2: the guide serves the
 * Next.js starter and the DTC starter, which name the backend URL differently. A `baseUrl` with a
 * fallback sent the DTC starter's kit requests to port 9000 (nothing listening, an empty coin step),
 * so the guide reads each starter's own variable and lets the kit refuse a missing one.
 */
describe("docs/storefront.md: the backend URL in both starters", () => {
  const baseUrlLines = guideBlocks.flatMap((block) => block.text.split("\n").filter((line) => /\bbaseUrl:/.test(line)).map((line) => line.trim()))

  it("never falls back to localhost:9000 for the backend", () => {
    expect(guide).not.toContain('|| "http://localhost:9000"')
    expect(guide).not.toContain('?? "http://localhost:9000"')
  })

  it("gives baseUrl exactly one starter's variable, with no fallback", () => {
    expect(baseUrlLines.length).toBeGreaterThan(0)
    expect(baseUrlLines.filter((line) => !/^baseUrl: process\.env\.[A-Z_]+,$/.test(line))).toEqual([])
  })

  it.each(Object.entries(STARTER_BACKEND_URL_VARIABLES))("has a store connection for %s, reading %s", (starter, variable) => {
    expect(baseUrlLines).toContain(`baseUrl: process.env.${variable},`)
    const table = guide.slice(guide.indexOf("### What differs between the two starters"), guide.indexOf("### 0."))
    expect(table).toContain(starter)
    expect(table).toContain(`\`${variable}\``)
  })

  it("installs with each starter's package manager", () => {
    expect(guide).toContain("npm install medusa-payment-crypto")
    expect(guide).toMatch(/pnpm (--filter @dtc\/storefront )?add medusa-payment-crypto/)
  })

  it("shows the coin picker's error and retry, never only when the coins arrived", () => {
    const picker = guideBlocks.find((block) => block.text.includes("<CryptoCoinPicker"))?.text ?? ""
    expect(picker).toContain("error={coins.error}")
    expect(picker).toContain("onRetry={coins.reload}")
    expect(picker).not.toContain("&& coins.data ?")
  })
})

/**
 * docs/storefront.md is followed block by block. Both starters build with `typescript.ignoreBuildErrors`,
 * so a server action a step calls without importing it builds and throws a `ReferenceError` only when
 * the shopper clicks (it happened to `payCryptoRest`: "Pay the rest" added an `onPayRest` to step 4's
 * panel in a block of its own, and step 4's import did not name it).
 */
describe("docs/storefront.md: every step imports the server actions it calls", () => {
  const actions = new Set(guideBlocks.flatMap((block) => [...block.text.matchAll(/^export async function (\w+)/gm)].map((match) => match[1] ?? "")))
  /** The steps ("### N. …", down to the next "### "), each with its blocks outside src/lib/data/cart.ts (those define no action). */
  const steps = guide
    .split(/\n(?=### )/)
    .filter((section) => /^### \d+\./.test(section))
    .map((section) => ({
      name: section.split("\n")[0] ?? "",
      blocks: [...section.matchAll(/```(?:ts|tsx)\n([\s\S]*?)```/g)].map((match) => match[1] ?? "").filter((text) => !/^export async function /m.test(text)),
    }))

  it("has steps whose blocks call server actions", () => {
    expect(steps.some((step) => step.blocks.some((text) => [...actions].some((name) => text.includes(`${name}(`))))).toBe(true)
  })

  it.each(steps.map((step) => [step.name, step.blocks] as const))("%s", (_, blocks) => {
    const imported = new Set(
      blocks.flatMap((text) =>
        [...text.matchAll(/import \{([^}]*)\} from "@lib\/data\/cart"/g)].flatMap((match) => (match[1] ?? "").split(",").map((name) => name.trim()))
      )
    )
    const called = [...actions].filter((name) => blocks.some((text) => new RegExp(`\\b${name}\\(`).test(text)))
    expect(called.filter((name) => !imported.has(name))).toEqual([])
  })
})
