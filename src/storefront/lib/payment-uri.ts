import { isDecimalString } from "./amount.js"

/**
 * Payment URIs a wallet opens with the address and amount filled in. Only coins with a standard
 * scheme get one: BIP21 (`bitcoin:<address>?amount=<coins>`) and the same form for Litecoin,
 * Bitcoin Cash and Dogecoin. Tokens (USDT_TRX, ...) and account chains have no single scheme every
 * wallet reads, so they get none (`null`) and the shopper copies the address and amount.
 */
const SCHEMES: Readonly<Record<string, string>> = {
  BTC: "bitcoin",
  LTC: "litecoin",
  BCH: "bitcoincash",
  DOGE: "dogecoin",
}

export interface PaymentUriInput {
  /** The gateway's coin id, e.g. "BTC". */
  psysCid: string
  address: string
  /** Decimal string in the coin, e.g. "0.00123400". */
  amount?: string | null
}

/** The URI scheme of a coin, or `null` when it has no standard one. */
export function paymentUriScheme(psysCid: string): string | null {
  return SCHEMES[psysCid.trim().toUpperCase()] ?? null
}

/** `bitcoin:bc1...?amount=0.001234`, or `null` for a coin without a standard scheme or without an address. */
export function buildPaymentUri(input: PaymentUriInput): string | null {
  const scheme = paymentUriScheme(input.psysCid)
  const address = input.address.trim()
  if (scheme === null || address === "") {
    return null
  }
  // A Bitcoin Cash address may already carry its "bitcoincash:" prefix (CashAddr).
  const bare = address.toLowerCase().startsWith(`${scheme}:`) ? address.slice(scheme.length + 1) : address
  const amount = input.amount?.trim()
  if (amount === undefined || amount === "" || !isDecimalString(amount) || amount.startsWith("-")) {
    return `${scheme}:${encodeURIComponent(bare)}`
  }
  return `${scheme}:${encodeURIComponent(bare)}?amount=${trimFraction(amount)}`
}

/** BIP21 amounts are plain decimals: "0.00123400" → "0.001234", "5.000" → "5". */
function trimFraction(amount: string): string {
  if (!amount.includes(".")) {
    return amount
  }
  return amount.replace(/0+$/, "").replace(/\.$/, "")
}
