#!/usr/bin/env node
// The README's screenshots on the registry's page. In the repository the README links them
// relatively (docs/screenshots/…), which the registry cannot resolve; the package packs them
// (package.json `files`), so while `npm pack` / `npm publish` runs, the README links each to its
// packed copy on unpkg for the version being packed (`prepack`: `pack`), and the repository's
// README comes back afterwards (`postpack`: `restore`). docs/releasing.md, "Publishing".
const fs = require("fs")
const path = require("path")

const root = path.resolve(__dirname, "..")
const readme = path.join(root, "README.md")
const backup = path.join(root, ".medusa", "README.repository.md")

/** A Markdown image of a packed screenshot: `![alt](docs/screenshots/<file>.png)`. */
const SCREENSHOT = /(!\[[^\]]*\]\()(docs\/screenshots\/[A-Za-z0-9._-]+\.png)(\))/g

/** The README with each screenshot linked to its packed copy of `name@version` on unpkg. */
function absoluteImages(text, name, version) {
  return text.replace(SCREENSHOT, (_, open, file, close) => `${open}https://unpkg.com/${name}@${version}/${file}${close}`)
}

/** The screenshot files the README links relatively. */
function screenshotsOf(text) {
  return [...text.matchAll(SCREENSHOT)].map((match) => match[2])
}

if (require.main === module) {
  const mode = process.argv[2]
  if (mode === "pack") {
    const { name, version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
    const text = fs.readFileSync(fs.existsSync(backup) ? backup : readme, "utf8")
    fs.mkdirSync(path.dirname(backup), { recursive: true })
    fs.writeFileSync(backup, text)
    fs.writeFileSync(readme, absoluteImages(text, name, version))
  } else if (mode === "restore") {
    if (fs.existsSync(backup)) {
      fs.writeFileSync(readme, fs.readFileSync(backup, "utf8"))
      fs.rmSync(backup)
    }
  } else {
    process.stderr.write("usage: node scripts/readme-images.js pack|restore\n")
    process.exit(2)
  }
}

module.exports = { absoluteImages, screenshotsOf }
