import { isDecimalString, toPlainDecimal } from "./amount.js"
import { EVM_ADDRESS, walletLinkFor, type WalletLink } from "./wallet-networks.js"

/**
 * Payment URIs ("wallet links") a wallet opens with the address and amount filled in. Which coin
 * gets which form is `walletLinkFor`'s table; docs/storefront.md ("Wallet links (payment URIs)")
 * gives the reasons.
 *
 * - BIP21 (`bitcoin:<address>?amount=<coins>`) for BTC, BTC_TEST, LTC, BCH (`bitcoincash:`, an
 *   address that already carries the CashAddr prefix is not prefixed twice), DOGE, DASH; the same
 *   decimal form for SOL (Solana Pay) and XMR (`monero:…?tx_amount=`). The amount is a plain
 *   decimal without trailing zeros, never exponent notation.
 * - EIP-681 for ETH (`ethereum:<address>@1?value=<wei>`) and for ERC-20 tokens on Ethereum
 *   (`ethereum:<contract>@1/transfer?address=<recipient>&uint256=<smallest units>`). Amounts are
 *   exact integers, converted digit by digit from the decimal string (never a float).
 * - `null` for TRON (TRX, TRC-20: no amount-carrying URI its wallets read alike; TronLink only has
 *   its own app deep links), for BNB Smart Chain and the other EVM chains (a wallet that reads
 *   `ethereum:` as Ethereum and skips the chain id would pay on the wrong chain), and for every coin
 *   the table does not list. A token link always names its chain and contract: a link that could
 *   be paid on the wrong network is worse than none.
 *
 * The amount is never rounded. When it has more decimals than the coin's smallest unit (after
 * trailing zeros are dropped), or is missing, zero, negative or not a decimal: a native coin gets
 * its link without an amount (the shopper types the amount shown beside it), a token gets `null`
 * (a token link is a contract call, only given complete).
 */

export interface PaymentUriInput {
  /** The gateway's coin id, e.g. "BTC", "USDT_ETH". */
  psysCid: string
  address: string
  /** Decimal string in the coin, e.g. "0.00123400". */
  amount?: string | null
}

/** The URI scheme of a coin ("bitcoin", "ethereum" for ETH and ERC-20 tokens…), or `null` when it gets no link. */
export function paymentUriScheme(psysCid: string): string | null {
  const link = walletLinkFor(psysCid)
  if (link === null) {
    return null
  }
  return link.kind === "decimal" ? link.scheme : "ethereum"
}

/**
 * `bitcoin:bc1…?amount=0.001234`, `ethereum:0x…@1?value=…`, `ethereum:0xdAC1…@1/transfer?address=…&uint256=…`;
 * `null` for a coin without a link, an empty or malformed address, or a token without an exact amount.
 */
export function buildPaymentUri(input: PaymentUriInput): string | null {
  const link = walletLinkFor(input.psysCid)
  const address = typeof input.address === "string" ? input.address.trim() : ""
  if (link === null || address === "") {
    return null
  }
  const amount = plainAmount(input.amount)
  switch (link.kind) {
    case "decimal":
      return decimalUri(link, address, amount)
    case "eip681-native":
      return nativeEip681Uri(link.chainId, link.decimals, address, amount)
    case "eip681-token":
      return tokenEip681Uri(link, address, amount)
  }
}

/**
 * Exact conversion of a decimal string to an integer count of smallest units ("10.5", 6 →
 * "10500000"), digit by digit. `null` when the amount is not a plain non-negative decimal or has
 * more than `decimals` decimals once trailing zeros are dropped: money is never rounded.
 */
export function toSmallestUnits(amount: string, decimals: number): string | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim())
  if (match === null || !Number.isInteger(decimals) || decimals < 0) {
    return null
  }
  const fraction = (match[2] ?? "").replace(/0+$/, "")
  if (fraction.length > decimals) {
    return null
  }
  const digits = `${match[1]}${fraction.padEnd(decimals, "0")}`.replace(/^0+/, "")
  return digits === "" ? "0" : digits
}

function decimalUri(link: Extract<WalletLink, { kind: "decimal" }>, address: string, amount: string | null): string | null {
  // The address may already carry the scheme (a CashAddr "bitcoincash:q…").
  const bare = address.toLowerCase().startsWith(`${link.scheme}:`) ? address.slice(link.scheme.length + 1) : address
  if (!link.address.test(bare)) {
    return null
  }
  const base = `${link.scheme}:${bare}`
  if (amount === null || toSmallestUnits(amount, link.decimals) === null) {
    return base
  }
  return `${base}?${link.amountParam}=${trimFraction(amount)}`
}

function nativeEip681Uri(chainId: number, decimals: number, address: string, amount: string | null): string | null {
  if (!EVM_ADDRESS.test(address)) {
    return null
  }
  const base = `ethereum:${address}@${chainId}`
  const wei = amount === null ? null : toSmallestUnits(amount, decimals)
  return wei === null ? base : `${base}?value=${wei}`
}

function tokenEip681Uri(link: Extract<WalletLink, { kind: "eip681-token" }>, recipient: string, amount: string | null): string | null {
  if (!EVM_ADDRESS.test(recipient) || recipient.toLowerCase() === link.contract.toLowerCase()) {
    return null
  }
  const units = amount === null ? null : toSmallestUnits(amount, link.decimals)
  if (units === null) {
    return null
  }
  return `ethereum:${link.contract}@${link.chainId}/transfer?address=${recipient}&uint256=${units}`
}

/** The amount as a plain positive decimal ("1e-8" → "0.00000001"), or `null` for missing, zero, negative or garbage. */
function plainAmount(amount: string | null | undefined): string | null {
  const trimmed = typeof amount === "string" ? amount.trim() : ""
  if (!isDecimalString(trimmed) || trimmed.startsWith("-")) {
    return null
  }
  let plain: string
  try {
    plain = toPlainDecimal(trimmed)
  } catch {
    return null
  }
  if (plain.startsWith("-") || !/[1-9]/.test(plain)) {
    return null
  }
  return plain
}

/** Plain decimals without trailing zeros: "0.00123400" → "0.001234", "5.000" → "5", "007.5" → "7.5". */
function trimFraction(amount: string): string {
  const [whole = "0", fraction = ""] = amount.split(".")
  const integer = whole.replace(/^0+(?=\d)/, "")
  const decimals = fraction.replace(/0+$/, "")
  return decimals === "" ? integer : `${integer}.${decimals}`
}
