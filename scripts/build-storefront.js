#!/usr/bin/env node
// `npm run build:storefront`: compiles src/storefront with tsc (src/storefront/tsconfig.build.json) into
// .medusa/storefront as ES modules with .d.ts, marks that folder `"type": "module"`, copies the optional
// stylesheet, and fails if a component or hook file lost its leading "use client" directive (Next.js
// reads it to split client from server code). `medusa plugin:build` never touches this folder.
const { spawnSync } = require("child_process")
const fs = require("fs")
const path = require("path")
const { checkUseClient } = require("./storefront-directives")

const root = path.resolve(__dirname, "..")
const outDir = path.join(root, ".medusa", "storefront")

fs.rmSync(outDir, { recursive: true, force: true })
const tsc = require.resolve("typescript/bin/tsc")
const run = spawnSync(process.execPath, [tsc, "-p", path.join(root, "src", "storefront", "tsconfig.build.json")], { cwd: root, stdio: "inherit" })
if (run.status !== 0) {
  process.stderr.write("build:storefront: tsc failed\n")
  process.exit(run.status ?? 1)
}
fs.writeFileSync(path.join(outDir, "package.json"), `${JSON.stringify({ type: "module", sideEffects: ["*.css"] }, null, 2)}\n`)
fs.copyFileSync(path.join(root, "src", "storefront", "styles.css"), path.join(outDir, "styles.css"))

const files = Object.fromEntries(
  ["components", "hooks", "lib", "server", "."].flatMap((folder) =>
    fs
      .readdirSync(path.join(outDir, folder))
      .filter((name) => name.endsWith(".js"))
      .map((name) => [path.posix.join(folder, name), fs.readFileSync(path.join(outDir, folder, name), "utf8")])
  )
)
const problems = checkUseClient(files)
if (problems.length > 0) {
  process.stderr.write(`build:storefront: ${problems.join("\n")}\n`)
  process.exit(1)
}
process.stdout.write(`build:storefront: ${path.relative(root, outDir)} written (${Object.keys(files).length} files checked for "use client")\n`)
