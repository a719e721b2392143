/**
 * Which payment URI ("wallet link") each gateway coin id gets, and the facts it needs: the URI
 * scheme, the decimals of the coin's smallest unit, the chain id and token contract. A coin id not
 * in this table gets no link (`null`): the shopper copies the address and the amount. The reasons
 * for every "no link" are in docs/storefront.md ("Wallet links (payment URIs)").
 *
 * - BIP21 family, amount in decimal coins: BTC and BTC_TEST `bitcoin:` (a testnet address is
 *   refused by a mainnet wallet), LTC `litecoin:`, BCH `bitcoincash:` (CashAddr), DOGE `dogecoin:`,
 *   DASH `dash:`.
 * - SOL: Solana Pay transfer request `solana:<address>?amount=<decimal SOL>`. Native SOL only: an
 *   SPL token link (`spl-token=`) read by a wallet that ignores that parameter pays SOL instead.
 * - XMR: the Monero URI `monero:<address>?tx_amount=<decimal XMR>`.
 * - ETH: EIP-681 `ethereum:<address>@1?value=<wei>`.
 * - ERC-20 tokens on Ethereum mainnet (USDT, USDC, DAI as `<CODE>_ETH` or `<CODE>_ERC20`): EIP-681
 *   `ethereum:<contract>@1/transfer?address=<recipient>&uint256=<smallest units>`. Only tokens whose
 *   contract is listed here; an unlisted token never gets a guessed contract.
 * - No link: TRON (TRX, TRC-20), BNB Smart Chain (BNB, BEP-20), Polygon, Arbitrum, Optimism, Base,
 *   Avalanche, SPL and TON tokens, TON, XRP, and every id not listed.
 *
 * Plain data, no imports: it runs in the shopper's browser.
 */

/** A link whose amount is a decimal in the coin (BIP21, Solana Pay, Monero). */
export interface DecimalAmountLink {
  kind: "decimal"
  /** URI scheme without the colon, e.g. "bitcoin". */
  scheme: string
  /** Name of the amount parameter: "amount" (BIP21, Solana Pay) or "tx_amount" (Monero). */
  amountParam: "amount" | "tx_amount"
  /** Decimal places of the coin's smallest unit; an amount with more is not put in the link. */
  decimals: number
  /** Shape of an address of this network (after any `<scheme>:` prefix is removed). */
  address: RegExp
}

/** EIP-681 payment of the chain's native coin: `ethereum:<address>@<chainId>?value=<wei>`. */
export interface Eip681NativeLink {
  kind: "eip681-native"
  chainId: number
  decimals: number
}

/** EIP-681 call of an ERC-20 `transfer`: `ethereum:<contract>@<chainId>/transfer?address=…&uint256=…`. */
export interface Eip681TokenLink {
  kind: "eip681-token"
  chainId: number
  /** The token contract on that chain (EIP-55 checksummed). */
  contract: string
  /** The token's `decimals()`. */
  decimals: number
}

export type WalletLink = DecimalAmountLink | Eip681NativeLink | Eip681TokenLink

/** Base58 / bech32 / CashAddr characters: letters and digits only. */
const ALPHANUMERIC = /^[A-Za-z0-9]+$/
/** A Solana address: base58, 32 to 44 characters. */
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
/** A Monero address: base58, 95 characters (standard, subaddress) or 106 (integrated). */
const MONERO_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{95}(?:[1-9A-HJ-NP-Za-km-z]{11})?$/

/** Shape of an EVM address: `0x` and 40 hexadecimal digits. */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Ethereum mainnet (EIP-155 chain id). */
export const ETHEREUM_CHAIN_ID = 1

function bip21(scheme: string): DecimalAmountLink {
  return { kind: "decimal", scheme, amountParam: "amount", decimals: 8, address: ALPHANUMERIC }
}

/** Native coins, by gateway coin id (`psys_cid`). */
const NATIVE_LINKS: Readonly<Record<string, WalletLink>> = {
  BTC: bip21("bitcoin"),
  BTC_TEST: bip21("bitcoin"),
  LTC: bip21("litecoin"),
  BCH: bip21("bitcoincash"),
  DOGE: bip21("dogecoin"),
  DASH: bip21("dash"),
  SOL: { kind: "decimal", scheme: "solana", amountParam: "amount", decimals: 9, address: SOLANA_ADDRESS },
  XMR: { kind: "decimal", scheme: "monero", amountParam: "tx_amount", decimals: 12, address: MONERO_ADDRESS },
  ETH: { kind: "eip681-native", chainId: ETHEREUM_CHAIN_ID, decimals: 18 },
}

/** ERC-20 tokens on Ethereum mainnet, by ticker: contract and `decimals()`. */
export const ETHEREUM_ERC20_TOKENS: Readonly<Record<string, { contract: string; decimals: number }>> = {
  USDT: { contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7", decimals: 6 },
  USDC: { contract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", decimals: 6 },
  DAI: { contract: "0x6B175474E89094C44Da98b954EedeAC495271d0F", decimals: 18 },
}

/** Coin-id suffixes that name Ethereum mainnet for a token (`USDT_ETH`, `USDT_ERC20`). */
const ETHEREUM_TOKEN_SUFFIXES = new Set(["ETH", "ERC20"])

/** The wallet link a coin id gets, or `null` when it gets none. */
export function walletLinkFor(psysCid: string): WalletLink | null {
  const id = psysCid.trim().toUpperCase()
  const native = NATIVE_LINKS[id]
  if (native !== undefined) {
    return native
  }
  const separator = id.indexOf("_")
  if (separator <= 0 || !ETHEREUM_TOKEN_SUFFIXES.has(id.slice(separator + 1))) {
    return null
  }
  const token = ETHEREUM_ERC20_TOKENS[id.slice(0, separator)]
  if (token === undefined) {
    return null
  }
  return { kind: "eip681-token", chainId: ETHEREUM_CHAIN_ID, contract: token.contract, decimals: token.decimals }
}
