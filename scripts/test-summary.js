#!/usr/bin/env node
// Reads jest's --json results and gives the closing line "N passed, N failed[, N skipped]".
// A run that wrote no results (jest crashed, a global setup failed) counts as one failure.
// A test file that failed to run (syntax error, hook failure) counts each of its tests as failed, or
// one failure when it had none, so a broken file can never look green.
const fs = require("fs")

function summarize(file, extra = { passed: 0, failed: 0 }) {
  let results
  try {
    results = JSON.parse(fs.readFileSync(file, "utf8"))
  } catch {
    return { line: `${extra.passed} passed, ${extra.failed + 1} failed`, passed: extra.passed, failed: extra.failed + 1 }
  }
  const passed = (results.numPassedTests || 0) + extra.passed
  let failed = (results.numFailedTests || 0) + extra.failed
  const skipped = (results.numPendingTests || 0) + (results.numTodoTests || 0)
  for (const suite of results.testResults || []) {
    const suiteFailed = suite.status === "failed" || Boolean(suite.testExecError)
    const counted = (suite.assertionResults || []).filter((a) => a.status === "failed").length
    if (suiteFailed && counted === 0) {
      failed += 1
    }
  }
  if (results.numTotalTests === 0 && failed === 0) {
    failed = 1 // a run that ran no test is not a pass
  }
  const line = `${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : "")
  return { line, passed, failed }
}

function flag(name) {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number.parseInt(process.argv[at + 1], 10) || 0 : 0
}

if (require.main === module) {
  const file = process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : ".test-results/jest.json"
  // --extra-passed N / --extra-failed N: end-to-end checks run outside jest (the demo, the browser test).
  const extra = { passed: flag("--extra-passed"), failed: flag("--extra-failed") }
  const { line, failed } = summarize(file, extra)
  process.stdout.write(`${line}\n`)
  process.exit(failed > 0 ? 1 : 0)
}

module.exports = { summarize }
