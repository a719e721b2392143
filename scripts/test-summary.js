#!/usr/bin/env node
// Reads jest's --json results and gives the closing line "N passed, N failed[, N skipped]".
// A run that wrote no results (jest crashed, a global setup failed) counts as one failure.
// A test file that failed to run (syntax error, hook failure) counts each of its tests as failed, or
// one failure when it had none, so a broken file can never look green.
// Above the closing line it lists each failed test (file, name, the first lines of its message), so a
// log that keeps only its tail still says what failed.
const fs = require("fs")
const path = require("path")

/** The failed tests of jest's results: file (relative), full name, the first lines of the message. */
function failuresOf(results, lines = 6) {
  const out = []
  const clip = (text) =>
    String(text || "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "")
      .slice(0, lines)
      .join("\n    ")
  for (const suite of results.testResults || []) {
    const file = path.relative(process.cwd(), suite.name || "")
    const failed = (suite.assertionResults || []).filter((a) => a.status === "failed")
    for (const assertion of failed) {
      out.push(`FAILED ${file} › ${assertion.fullName || assertion.title}\n    ${clip((assertion.failureMessages || []).join("\n"))}`)
    }
    if (failed.length === 0 && (suite.status === "failed" || suite.testExecError)) {
      out.push(`FAILED ${file} (the file did not run)\n    ${clip(suite.message || (suite.testExecError && suite.testExecError.message))}`)
    }
  }
  return out
}

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
  return { line, passed, failed, failures: failuresOf(results) }
}

function flag(name) {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number.parseInt(process.argv[at + 1], 10) || 0 : 0
}

if (require.main === module) {
  const file = process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : ".test-results/jest.json"
  // --extra-passed N / --extra-failed N: end-to-end checks run outside jest (the demo, the browser test).
  const extra = { passed: flag("--extra-passed"), failed: flag("--extra-failed") }
  const { line, failed, failures = [] } = summarize(file, extra)
  for (const failure of failures) process.stdout.write(`${failure}\n`)
  process.stdout.write(`${line}\n`)
  process.exit(failed > 0 ? 1 : 0)
}

module.exports = { summarize, failuresOf }
