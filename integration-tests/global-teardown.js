module.exports = async function globalTeardown() {
  const pg = globalThis.__MPC_EMBEDDED_PG__
  if (pg) {
    await pg.stop()
  }
}
