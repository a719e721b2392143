// Starts an embedded PostgreSQL for the HTTP integration tests when no server is configured
// (see db-env.js). scripts/embedded-pg.js starts it (and makes it work when run as root from a
// folder the "postgres" user cannot read).
const { startEmbeddedPostgres, THROWAWAY_FLAGS } = require("../scripts/embedded-pg")

module.exports = async function globalSetup() {
  if (process.env.MPC_DB_MODE !== "embedded") {
    return
  }
  const started = Date.now()
  globalThis.__MPC_EMBEDDED_PG__ = await startEmbeddedPostgres({
    user: process.env.DB_USERNAME,
    password: process.env.DB_PASSWORD,
    port: Number(process.env.DB_PORT),
    postgresFlags: THROWAWAY_FLAGS,
  })
  process.stdout.write(
    `\n[global-setup] embedded PostgreSQL on localhost:${process.env.DB_PORT} in ${Date.now() - started} ms\n`
  )
}
