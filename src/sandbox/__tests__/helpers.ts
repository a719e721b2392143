import { signCallback } from "../../gateway/core/callbacks"
import { Dec, SandboxClock, SandboxCore, defaultSeed, type CreateInvoiceInput, type Seed, type SeedShop } from "../index"

export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0)

/** A core with a frozen clock and no HTTP: what the unit tests drive. */
export function makeCore(options: { seed?: Seed; internalTransferSeconds?: number } = {}): SandboxCore {
  return new SandboxCore({
    seed: options.seed ?? defaultSeed(),
    sign: (fields, o) => signCallback(fields, o),
    clock: new SandboxClock(T0),
    publicUrl: () => "http://sandbox.test",
    internalTransferSeconds: options.internalTransferSeconds ?? 60,
  })
}

export function shop(core: SandboxCore, whiteLabel: boolean): SeedShop {
  const found = core.shops.find((s) => s.white_label === whiteLabel)
  if (found === undefined) {
    throw new Error("seed lacks the shop kind")
  }
  return found
}

let counter = 0

export function invoiceInput(overrides: Partial<CreateInvoiceInput> = {}): CreateInvoiceInput {
  counter += 1
  return {
    order_number: `order-${counter}`,
    order_name: "Test order",
    psys_cid: "BTC",
    amount: new Dec("0.01"),
    source_currency: null,
    source_amount: null,
    allowed_psys_cids: [],
    description: null,
    email: null,
    language: "en_US",
    plugin: null,
    version: null,
    callback_url: null,
    success_callback_url: null,
    fail_callback_url: null,
    success_invoice_url: null,
    fail_invoice_url: null,
    expire_min: 600,
    return_existing: false,
    ...overrides,
  }
}
