import type { CryptoCallbackReceivedEvent } from "../../core/events"
import { config, handleCallbackEvent, type CallbackEventDeps } from "../crypto-callback-received"

function fakes(process: CallbackEventDeps["process"]) {
  const calls: string[] = []
  const emitted: Array<{ event: CryptoCallbackReceivedEvent; delayMs: number }> = []
  const deps: CallbackEventDeps = {
    process: async (id) => {
      calls.push(`process ${id}`)
      return process(id)
    },
    recordFailure: async (id, reason) => void calls.push(`failure ${id} ${reason}`),
    emit: async (event, delayMs) => void emitted.push({ event, delayMs }),
    logger: { error: () => undefined, warn: () => undefined },
  }
  return { deps, calls, emitted }
}

describe("crypto.callback.received subscriber", () => {
  it("listens to crypto.callback.received", () => {
    expect(config.event).toBe("crypto.callback.received")
  })

  it("delegates the stored delivery to the processing workflow once", async () => {
    const { deps, calls, emitted } = fakes(async () => ({ outcome: "applied" }))
    await handleCallbackEvent(deps, { id: "ccb_1" })
    expect(calls).toEqual(["process ccb_1"])
    expect(emitted).toEqual([])
  })

  it("records a failed processing on the delivery and rethrows it so the event bus retries", async () => {
    const { deps, calls } = fakes(async () => {
      throw new Error("gateway timeout")
    })
    await expect(handleCallbackEvent(deps, { id: "ccb_1" })).rejects.toThrow("gateway timeout")
    expect(calls).toEqual(["process ccb_1", "failure ccb_1 gateway timeout"])
  })

  it("records a failure thrown as a plain object (as a workflow run rethrows a step error) by its message and code", async () => {
    const { deps, calls } = fakes(async () => {
      throw { message: "Cart cart_1 is locked by another request", code: "cart_locked", name: "Error" }
    })
    await expect(handleCallbackEvent(deps, { id: "ccb_1" })).rejects.toBeDefined()
    expect(calls).toEqual(["process ccb_1", "failure ccb_1 Cart cart_1 is locked by another request (code cart_locked)"])
  })

  it("never records the api_key a failure message carries", async () => {
    const { deps, calls } = fakes(async () => {
      throw new Error("GET http://gw.test/api/v1/invoices/new?order_number=1&api_key=sk_live_123 failed")
    })
    await expect(handleCallbackEvent(deps, { id: "ccb_1" })).rejects.toThrow()
    expect(calls[1]).toBe("failure ccb_1 GET http://gw.test/api/v1/invoices/new?order_number=1&api_key=*** failed")
  })

  it("retries a paid cart Medusa could not complete yet within seconds, then leaves it to the job", async () => {
    const { deps, emitted } = fakes(async () => ({ outcome: "incomplete" }))
    await handleCallbackEvent(deps, { id: "ccb_1" })
    await handleCallbackEvent(deps, { id: "ccb_1", retry: 1 })
    await handleCallbackEvent(deps, { id: "ccb_1", retry: 2 })
    await handleCallbackEvent(deps, { id: "ccb_1", retry: 3 })
    expect(emitted).toEqual([
      { event: { id: "ccb_1", retry: 1 }, delayMs: 2000 },
      { event: { id: "ccb_1", retry: 2 }, delayMs: 5000 },
      { event: { id: "ccb_1", retry: 3 }, delayMs: 15000 },
    ])
  })
})
