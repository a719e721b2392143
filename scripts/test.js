#!/usr/bin/env node
// `npm test`: every test type (unit, contract, HTTP) in one jest run, results also written as JSON to
// .test-results/jest.json (or the file TEST_RESULTS_FILE names: CI's second run on Node 22), then
// one closing line "N passed, N failed" (CI reads that line, not jest's own summary). Extra
// arguments go to jest, e.g. `npm test -- src/gateway`.
const { spawnSync } = require("child_process")
const fs = require("fs")
const path = require("path")
const { summarize } = require("./test-summary")

const root = path.resolve(__dirname, "..")
const outputFile = path.resolve(root, process.env.TEST_RESULTS_FILE || path.join(".test-results", "jest.json"))
fs.mkdirSync(path.dirname(outputFile), { recursive: true })
fs.rmSync(outputFile, { force: true })

const jestBin = require.resolve("jest/bin/jest")
const args = [
  jestBin,
  "--runInBand",
  "--forceExit",
  "--silent=false",
  "--json",
  `--outputFile=${outputFile}`,
  ...process.argv.slice(2),
]
const env = {
  ...process.env,
  NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" "),
  LOG_LEVEL: process.env.LOG_LEVEL || "error",
}
const run = spawnSync(process.execPath, args, { cwd: root, env, stdio: "inherit" })

const { line, failed, failures = [] } = summarize(outputFile)
process.stdout.write(`\n${failures.map((failure) => `${failure}\n`).join("")}${line}\n`)
const code = run.status === null ? 1 : run.status
process.exit(code !== 0 ? code : failed > 0 ? 1 : 0)
