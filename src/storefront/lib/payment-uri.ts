import { isDecimalString, toPlainDecimal } from "./amount.js"
import { EVM_ADDRESS, walletLinkFor, type WalletLink } from "./wallet-networks.js"

/**
 * Payment URIs ("wallet links") a wallet opens with the address and amount filled in. Which coin
 * gets which form is the network table's (lib/wallet-networks.ts); docs/storefront.md ("Wallet
 * links (payment URIs)") gives the reasons.
 *
 * - BIP21 (`bitcoin:<address>?amount=<coins>`) for BTC, BTC_TEST, LTC, BCH (`bitcoincash:`, an
 *   address that already carries the CashAddr prefix is not prefixed twice), DOGE, DASH; the same
 *   decimal form for SOL (Solana Pay) and XMR (`monero:…?tx_amount=`). The amount is a plain
 *   decimal without trailing zeros, never exponent notation.
 * - EIP-681 with the chain id for the EVM chains' own coins (`ethereum:<address>@<chainId>?value=<wei>`:
 *   ETH @1, BNB @56, POL @137, ETH on Base @8453, Arbitrum One @42161, Optimism @10, AVAX @43114)
 *   and for the tokens whose contract the table lists
 *   (`ethereum:<contract>@<chainId>/transfer?address=<recipient>&uint256=<smallest units>`).
 *   Amounts are exact integers, converted digit by digit from the decimal string (never a float).
 * - `null` for TRON (TRX, TRC-20: no amount-carrying URI its wallets read alike; the panel shows
 *   the address and names the network), for tokens whose contract the table does not list, and
 *   for every coin the table does not know. A token link always names its chain and contract: a
 *   link that could be paid on the wrong network is worse than none.
 *
 * The amount is never rounded. When it has more decimals than the coin's smallest unit (after
 * trailing zeros are dropped), or is missing, zero, negative or not a decimal: a native coin gets
 * its link without an amount (the shopper types the amount shown beside it), a token gets `null`
 * (a token link is a contract call, only given complete).
 */

export interface PaymentUriInput {
  /** The gateway's coin id, e.g. "BTC", "USDT_ETH", "USDC_POLYGON". */
  psysCid: string
  address: string
  /** Decimal string in the coin, e.g. "0.00123400". */
  amount?: string | null
}

/** The URI scheme of a coin ("bitcoin", "ethereum" for every EVM chain's coin and tokens…), or `null` when it gets no link. */
export function paymentUriScheme(psysCid: string): string | null {
  const link = walletLinkFor(psysCid)
  if (link === null) {
    return null
  }
  return link.kind === "decimal" ? link.scheme : "ethereum"
}

/** A wallet link and the amount it carries. */
export interface PaymentLink {
  uri: string
  /** The amount the link tells the wallet, as a plain decimal in the coin; `null` when the link leaves it out. */
  amount: string | null
}

/**
 * `bitcoin:bc1…?amount=0.001234`, `ethereum:0x…@56?value=…`, `ethereum:0x3c49…@137/transfer?address=…&uint256=…`;
 * `null` for a coin without a link, an empty or malformed address, or a token without an exact amount.
 */
export function buildPaymentUri(input: PaymentUriInput): string | null {
  return buildPaymentLink(input)?.uri ?? null
}

/**
 * The wallet link of `buildPaymentUri`, with the amount it carries: `null` when the link leaves
 * the amount out (a native coin's amount with more decimals than the coin has, or none given), so
 * a page says "you send 0.001234 BTC" beside a link only when the wallet is told that amount.
 */
export function buildPaymentLink(input: PaymentUriInput): PaymentLink | null {
  const link = walletLinkFor(input.psysCid)
  const address = typeof input.address === "string" ? input.address.trim() : ""
  if (link === null || address === "") {
    return null
  }
  const given = plainAmount(input.amount)
  switch (link.kind) {
    case "decimal":
      return decimalLink(link, address, given)
    case "eip681-native":
      return nativeEip681Link(link.chainId, link.decimals, address, given)
    case "eip681-token":
      return tokenEip681Link(link, address, given)
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

function decimalLink(link: Extract<WalletLink, { kind: "decimal" }>, address: string, amount: string | null): PaymentLink | null {
  // The address may already carry the scheme (a CashAddr "bitcoincash:q…").
  const bare = address.toLowerCase().startsWith(`${link.scheme}:`) ? address.slice(link.scheme.length + 1) : address
  if (!link.address.test(bare)) {
    return null
  }
  const base = `${link.scheme}:${bare}`
  if (amount === null || toSmallestUnits(amount, link.decimals) === null) {
    return { uri: base, amount: null }
  }
  return { uri: `${base}?${link.amountParam}=${trimFraction(amount)}`, amount }
}

function nativeEip681Link(chainId: number, decimals: number, address: string, amount: string | null): PaymentLink | null {
  if (!EVM_ADDRESS.test(address)) {
    return null
  }
  const base = `ethereum:${address}@${chainId}`
  const wei = amount === null ? null : toSmallestUnits(amount, decimals)
  return wei === null ? { uri: base, amount: null } : { uri: `${base}?value=${wei}`, amount }
}

function tokenEip681Link(link: Extract<WalletLink, { kind: "eip681-token" }>, recipient: string, amount: string | null): PaymentLink | null {
  if (!EVM_ADDRESS.test(recipient) || recipient.toLowerCase() === link.contract.toLowerCase()) {
    return null
  }
  const units = amount === null ? null : toSmallestUnits(amount, link.decimals)
  if (units === null) {
    return null
  }
  return { uri: `ethereum:${link.contract}@${link.chainId}/transfer?address=${recipient}&uint256=${units}`, amount }
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
