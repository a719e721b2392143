import { Dec } from "../index"
import { makeCore, shop } from "./helpers"

const BTC_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
const ETH_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"

describe("withdrawals, deposits and exchanges move balances", () => {
  it("a cash_out debits the amount plus the network fee", () => {
    const core = makeCore()
    const s = shop(core, true)
    const before = core.balance(s, "BTC")
    core.withdraw(s, { coin: core.requireCoin("BTC", "x"), type: "cash_out", to: [BTC_ADDRESS], amounts: [new Dec("0.1")], plan: "normal" })
    expect(before.minus(core.balance(s, "BTC")).toFixed()).toBe("0.10002")
  })

  it("a UTXO mass_cash_out pays one fee for all outputs", () => {
    const core = makeCore()
    const c = core.requireCoin("BTC", "x")
    expect(core.networkFee(c, "priority", 3).toFixed()).toBe("0.00005")
  })

  it("an EVM mass_cash_out pays one fee per address", () => {
    const core = makeCore()
    expect(core.networkFee(core.requireCoin("ETH", "x"), "normal", 3).toFixed()).toBe("0.00126")
  })

  it("a withdrawal above the balance fails with 116", () => {
    const core = makeCore()
    const s = shop(core, true)
    const all = core.balance(s, "BTC")
    expect(() =>
      core.withdraw(s, { coin: core.requireCoin("BTC", "x"), type: "cash_out", to: [BTC_ADDRESS], amounts: [all], plan: "normal" })
    ).toThrow(expect.objectContaining({ code: 116, httpStatus: 422 }))
  })

  it("a balance that cannot even pay the fee fails with 115", () => {
    const core = makeCore()
    const s = shop(core, true)
    core.withdraw(s, {
      coin: core.requireCoin("ETH", "x"),
      type: "cash_out",
      to: [ETH_ADDRESS],
      amounts: [core.balance(s, "ETH").minus("0.00042")],
      plan: "normal",
    })
    expect(() =>
      core.withdraw(s, { coin: core.requireCoin("ETH", "x"), type: "cash_out", to: [ETH_ADDRESS], amounts: [new Dec("0.1")], plan: "normal" })
    ).toThrow(expect.objectContaining({ code: 115, httpStatus: 400 }))
  })

  it("a deposit address stays tied to its uid", async () => {
    const core = makeCore()
    const s = shop(core, true)
    const a = await core.deposit(s, "user-1", core.requireCoin("LTC", "x"))
    const b = await core.deposit(s, "user-1", core.requireCoin("LTC", "x"))
    expect(b.hash).toBe(a.hash)
  })

  it("a confirmed pay_in credits the amount minus commission", async () => {
    const core = makeCore()
    const s = shop(core, true)
    const before = core.balance(s, "LTC")
    const deposit = await core.deposit(s, "user-2", core.requireCoin("LTC", "x"))
    core.payDeposit(deposit, { amount: new Dec("2"), confirmations: null, txid: null })
    expect(core.balance(s, "LTC").minus(before).toFixed()).toBe("1.98")
  })

  it("an unconfirmed pay_in is pending and completes when its confirmations arrive", async () => {
    const core = makeCore()
    const s = shop(core, true)
    const deposit = await core.deposit(s, "user-3", core.requireCoin("LTC", "x"))
    const payIn = core.payDeposit(deposit, { amount: new Dec("2"), confirmations: 0, txid: null })
    const pending = payIn.status
    core.payDeposit(deposit, { amount: null, confirmations: null, txid: payIn.tx.txid })
    expect([pending, payIn.status]).toEqual(["pending", "completed"])
  })

  it("an exchange debits the from amount and completes after its processing time", () => {
    const core = makeCore()
    const s = shop(core, true)
    const before = core.balance(s, "BTC")
    const quote = core.quoteExchange(core.requireCoin("BTC", "x"), core.requireCoin("ETH", "x"), { from: new Dec("0.01") })
    const exchange = core.createExchange(s, quote, ETH_ADDRESS)
    core.advanceClock(core.seed.exchange.processing_seconds)
    expect([before.minus(core.balance(s, "BTC")).toFixed(), core.exchange(s, exchange.id).status]).toEqual(["0.01", "completed"])
  })

  it("an exchange quote rounds the received amount down to the target precision", () => {
    const core = makeCore()
    const quote = core.quoteExchange(core.requireCoin("BTC", "x"), core.requireCoin("USDT_TRX", "x"), { from: new Dec("0.01") })
    // 0.01 × 64250.37 / 1.0002 × 0.99 = 635.95147270545890821835…, 6 places, down
    expect(quote.toAmount.toFixed()).toBe("635.951472")
  })
})
