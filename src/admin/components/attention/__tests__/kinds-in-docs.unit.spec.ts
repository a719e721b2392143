import fs from "fs"
import path from "path"
import type { AdminCryptoAttentionItem } from "../../../../api/admin/crypto/types"
import { KIND_LABELS } from "../kinds"

// docs/troubleshooting.md quotes the Needs-attention items as the admin shows them: a merchant
// searches the page for the words on the screen.
const troubleshooting = fs.readFileSync(path.resolve(__dirname, "../../../../../docs/troubleshooting.md"), "utf8")
const titles = Object.values(KIND_LABELS).map((label) => label.title)

describe("the Needs-attention words docs/troubleshooting.md quotes", () => {
  it("are titles the admin shows", () => {
    const quoted = [...troubleshooting.matchAll(/(?:Needs attention(?: item)?:?|attention item) "([^"]+)"/g)].map((match) => match[1])
    expect(quoted.length).toBeGreaterThanOrEqual(2)
    for (const title of quoted) expect(titles).toContain(title)
  })

  it("quote the sentence of a callback that keeps failing as the admin words it", () => {
    const sentence = KIND_LABELS.callback_failed.sentence({} as AdminCryptoAttentionItem)
    expect(troubleshooting).toContain(`attention item "${KIND_LABELS.callback_failed.title}" (\`${sentence}\`)`)
  })
})
