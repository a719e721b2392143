import { Decimal } from "decimal.js"
import { GatewayNotFoundError, GatewayTimeoutError, type Operation, type Withdrawal } from "../../../gateway"
import { sendReservedWithdrawal, type CryptoWithdrawalPatch, type SendWithdrawalDeps } from "../steps/send-crypto-withdrawal"
import type { CryptoWithdrawalRecord } from "../steps/reserve-crypto-withdrawal"

const now = new Date("2026-11-25T06:40:00.000Z")

/** A freshly reserved withdrawal row, as the reservation step records it. */
function reservedRow(fields: Partial<CryptoWithdrawalRecord> = {}): CryptoWithdrawalRecord {
  const row = {
    id: "cwdr_1",
    idempotency_key: "key-1",
    active_fingerprint: "fp-1",
    fingerprint: "fp-1",
    provider_id: "pp_crypto_crypto",
    type: "cash_out",
    psys_cid: "ETH",
    fee_plan: "normal",
    recipients: [{ address: "0xabc", amount: "0.01" }],
    total_amount: "0.01",
    status: "requested",
    operation_id: null,
    gateway_status: null,
    tx_urls: null,
    fee: null,
    error_code: null,
    error_message: null,
    error_field: null,
    gateway_evidence: null,
    requested_by: "user_1",
    requested_at: now,
    sent_at: null,
    resolved_at: null,
    resolution: null,
    resolved_by: null,
    resolution_note: null,
    purpose: "withdrawal",
    order_id: null,
    payment_id: null,
    invoice_id: null,
    refund_id: null,
    source_currency: null,
    source_amount: null,
    source_rate: null,
    note: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    ...fields,
  }
  // The fixture spells out every column; model.json() is typed as an object, recipients are an array.
  return row as unknown as CryptoWithdrawalRecord
}

/** Deps whose update applies the patch to one in-memory row, and a gateway answering as told. */
function fakes(answer: () => Promise<Withdrawal>, readBack: () => Promise<Operation>) {
  let row = reservedRow()
  const patches: CryptoWithdrawalPatch[] = []
  const deps: SendWithdrawalDeps = {
    update: async (patch) => {
      patches.push(patch)
      row = { ...row, ...patch }
      return row
    },
    client: { operations: { withdraw: jest.fn(answer), retrieve: jest.fn(readBack) } },
    emitOutcomeUnknown: jest.fn(async () => undefined),
    now: () => now,
  }
  return { deps, patches, row: () => row }
}

const errorAnswer = (): Promise<Withdrawal> => Promise.resolve({ id: "op_9", type: "cash_out", status: "error", tx_url: [], fee: new Decimal("0.0001") })
const errorOperation = (): Promise<Operation> =>
  Promise.resolve({ id: "op_9", type: "cash_out", status: "error", tx_url: [], amount: new Decimal("0.01"), fee: new Decimal("0.0001"), status_code: 6 })

describe("a withdrawal the gateway answers with status error (spec §2.3)", () => {
  it("keeps the duplicate guard: the same payment cannot be sent again by itself", async () => {
    const { deps, row } = fakes(errorAnswer, errorOperation)
    await sendReservedWithdrawal(deps, reservedRow())
    expect(row()).toMatchObject({ status: "error", operation_id: "op_9", active_fingerprint: "fp-1", resolved_at: null })
  })

  it("reads the operation back and stores what it showed, with when", async () => {
    const { deps, row } = fakes(errorAnswer, errorOperation)
    await sendReservedWithdrawal(deps, reservedRow())
    expect(deps.client.operations.retrieve).toHaveBeenCalledWith("op_9")
    expect(row().gateway_evidence).toEqual({
      operation_id: "op_9",
      answered_status: "error",
      answered_at: now.toISOString(),
      reads: [{ at: now.toISOString(), ok: true, status: "error", status_code: 6, amount: "0.01", fee: "0.0001", tx_urls: [], finished_at: null }],
    })
  })

  it("records a read that fails as evidence and still keeps the guard", async () => {
    const { deps, row } = fakes(errorAnswer, () => Promise.reject(new GatewayTimeoutError("no answer within 3000 ms", 3000)))
    const outcome = await sendReservedWithdrawal(deps, reservedRow())
    expect("withdrawal" in outcome).toBe(true)
    expect(row()).toMatchObject({ status: "error", active_fingerprint: "fp-1" })
    expect(row().gateway_evidence).toMatchObject({ operation_id: "op_9", reads: [{ ok: false, at: now.toISOString(), error: expect.any(String) }] })
  })

  it("tells the merchant it failed at the gateway, naming the operation and its status", async () => {
    const { deps, row } = fakes(errorAnswer, () => Promise.reject(new GatewayNotFoundError(404, { code: 111, message: "the specified resource does not exist" })))
    await sendReservedWithdrawal(deps, reservedRow())
    expect(row().error_message).toContain("Failed at the gateway: operation op_9, status error")
    expect(row().error_message).toContain("failed: allow sending again")
  })
})

describe("other answers keep their meaning", () => {
  it("releases the guard of a completed withdrawal and reads nothing back", async () => {
    const { deps, row } = fakes(() => Promise.resolve({ id: "op_1", type: "cash_out", status: "completed", tx_url: ["https://tx/1"] }), errorOperation)
    await sendReservedWithdrawal(deps, reservedRow())
    expect(row()).toMatchObject({ status: "completed", active_fingerprint: null, gateway_evidence: null })
    expect(deps.client.operations.retrieve).not.toHaveBeenCalled()
  })

  it("keeps the guard of a timed-out withdrawal (outcome unknown) and emits the event", async () => {
    const { deps, row } = fakes(() => Promise.reject(new GatewayTimeoutError("no answer within 3000 ms", 3000)), errorOperation)
    await sendReservedWithdrawal(deps, reservedRow())
    expect(row()).toMatchObject({ status: "outcome_unknown", active_fingerprint: "fp-1" })
    expect(deps.emitOutcomeUnknown).toHaveBeenCalledTimes(1)
  })
})
