import { sharedLockingWarning } from "../deployment"

const locking = (resolve: string) => ({ locking: { resolve: "@medusajs/medusa/locking", options: { providers: [{ resolve, id: "shared", is_default: true }] } } })

describe("sharedLockingWarning", () => {
  it("says nothing for a store in one process (shared mode, the default)", () => {
    expect(sharedLockingWarning({ projectConfig: {} })).toBeUndefined()
    expect(sharedLockingWarning({ projectConfig: { workerMode: "shared" } })).toBeUndefined()
    expect(sharedLockingWarning(undefined)).toBeUndefined()
  })

  it("warns a server or worker instance left on the in-memory locking provider", () => {
    for (const workerMode of ["server", "worker"]) {
      const warning = sharedLockingWarning({ projectConfig: { workerMode }, modules: {} })
      expect(warning).toContain(`runs in "${workerMode}" mode with Medusa's in-memory locking provider`)
      expect(warning).toContain("@medusajs/medusa/locking-redis or @medusajs/medusa/locking-postgres")
    }
    expect(sharedLockingWarning({ projectConfig: { workerMode: "server" }, modules: locking("@medusajs/medusa/locking-inmemory") })).toBeDefined()
  })

  it("says nothing when a Redis or PostgreSQL locking provider is configured", () => {
    expect(sharedLockingWarning({ projectConfig: { workerMode: "server" }, modules: locking("@medusajs/medusa/locking-redis") })).toBeUndefined()
    expect(sharedLockingWarning({ projectConfig: { workerMode: "worker" }, modules: locking("@medusajs/medusa/locking-postgres") })).toBeUndefined()
  })
})
