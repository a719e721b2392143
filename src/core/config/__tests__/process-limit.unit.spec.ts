import { callbackConcurrency, DEFAULT_CALLBACK_CONCURRENCY, ProcessLimit } from "../process-limit"

/** A job that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void
  const done = new Promise<void>((resolve) => (release = resolve))
  return {
    job: async () => {
      log.push(`start ${name}`)
      await done
      log.push(`end ${name}`)
      return name
    },
    release: () => release(),
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe("ProcessLimit", () => {
  it("runs at most `concurrency` jobs at once, the others in the order they came", async () => {
    const limit = new ProcessLimit(2)
    const log: string[] = []
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => gate(log, name))
    const results = [a, b, c, d].map((g) => limit.run(g.job))
    await tick()
    expect(log).toEqual(["start a", "start b"])
    expect(limit.queued).toBe(2)
    b.release()
    await tick()
    expect(log).toEqual(["start a", "start b", "end b", "start c"])
    a.release()
    c.release()
    d.release()
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"])
    expect(log.filter((line) => line.startsWith("start"))).toEqual(["start a", "start b", "start c", "start d"])
    expect(limit.queued).toBe(0)
  })

  it("frees the slot of a job that fails and passes its error on", async () => {
    const limit = new ProcessLimit(1)
    await expect(limit.run(async () => Promise.reject(new Error("gateway timeout")))).rejects.toThrow("gateway timeout")
    expect(await limit.run(async () => "next")).toBe("next")
  })

  it("refuses a concurrency that is not a whole number of at least 1", () => {
    expect(() => new ProcessLimit(0)).toThrow(/at least 1/)
    expect(() => new ProcessLimit(1.5)).toThrow(/at least 1/)
  })
})

describe("CRYPTO_CALLBACK_CONCURRENCY", () => {
  it("defaults when unset or empty", () => {
    expect(callbackConcurrency(undefined)).toBe(DEFAULT_CALLBACK_CONCURRENCY)
    expect(callbackConcurrency(" ")).toBe(DEFAULT_CALLBACK_CONCURRENCY)
  })

  it("takes a whole number", () => {
    expect(callbackConcurrency("8")).toBe(8)
  })

  it("refuses anything else, naming the variable", () => {
    for (const value of ["0", "-1", "2.5", "four", "1e3"]) {
      expect(() => callbackConcurrency(value)).toThrow(/CRYPTO_CALLBACK_CONCURRENCY must be a whole number/)
    }
  })
})
