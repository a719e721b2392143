/**
 * Contract: the sandbox's fiat table covers every currency a Medusa store can have, and
 * `source_amount` carries at most its currency's ISO 4217 minor units
 * (docs/gateway-readings.md#fiat-amounts), over real HTTP.
 */
import { defaultCurrencies } from "@medusajs/framework/utils"

import { defaultSeed, startSandbox, type RunningSandbox, type SandboxShop } from "../../src/sandbox"
import { clientFor, dataOf, raw, shopOf } from "./helpers"

// Over real HTTP to a running sandbox: on a loaded CI machine a test can pass jest's default 5 s.
// Speed is not what these tests check.
jest.setTimeout(60_000)

let sandbox: RunningSandbox
let plain: SandboxShop
let seq = 0

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, tickIntervalMs: 0 })
  plain = shopOf(sandbox, "plain")
})

afterAll(() => sandbox.close())

const create = (sourceCurrency: string, sourceAmount: string) =>
  raw(sandbox, "/api/v1/invoices/new", {
    api_key: plain.secretKey,
    order_number: `fiat-${++seq}`,
    order_name: "Fiat",
    currency: "BTC",
    source_currency: sourceCurrency,
    source_amount: sourceAmount,
  })

describe("fiat currencies", () => {
  it("the bundled seed knows every currency of Medusa's default list", () => {
    const known = Object.keys(defaultSeed().fiat_currencies)
    expect(Object.keys(defaultCurrencies).filter((code) => !known.includes(code))).toEqual([])
  })

  it("the fiat path of the currencies list answers for a three-decimal currency", async () => {
    const list = await clientFor(sandbox, plain).currencies.list("KWD")
    expect(list.every((c) => c.fiat === "KWD")).toBe(true)
  })
})

describe("source_amount (spec §4.1)", () => {
  it("with the currency's minor units creates the invoice", async () => {
    const answers = await Promise.all([create("EUR", "10.55"), create("JPY", "1500"), create("KWD", "3.125")])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
  })

  it("with more decimals is HTTP 422, code 105, naming source_amount and the decimals allowed", async () => {
    const answer = await create("EUR", "10.5549")
    const body = answer.json as { status: string; data: { code: number; message: string } }
    expect([answer.status, body.status, body.data.code, JSON.parse(body.data.message)]).toEqual([
      422,
      "error",
      105,
      { source_amount: ['"source_amount" in EUR takes at most 2 decimal places (ISO 4217 minor units).'] },
    ])
  })

  it("in JPY with decimals is refused", async () => {
    expect((await create("JPY", "1500.5")).status).toBe(422)
  })

  it("not a plain positive decimal is refused naming source_amount", async () => {
    const answers = await Promise.all([create("EUR", "1e3"), create("EUR", "-5"), create("EUR", "0")])
    expect(answers.map((a) => [a.status, a.text.includes("source_amount")])).toEqual([
      [422, true],
      [422, true],
      [422, true],
    ])
  })

  it("in an unknown currency is error 105 naming source_currency", async () => {
    const answer = await create("XXX", "10")
    expect([answer.status, answer.text.includes("source_currency")]).toEqual([422, true])
  })

  it("an accepted invoice states the fiat amount it was given", async () => {
    const answer = await create("BHD", "112.125")
    const created = dataOf<{ txn_id: string }>(answer)
    const state = await sandbox.control.as(plain.secretKey).invoice(created.txn_id)
    expect([state.source_currency, state.source_amount]).toEqual(["BHD", "112.125"])
  })
})
