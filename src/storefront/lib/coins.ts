/**
 * Coin and network names for the gateway's coin ids (`psys_cid`). A token id names its network:
 * `USDT_ETH` is USDT on Ethereum, `USDT_TRX` is USDT on Tron; a shopper who sends to the wrong
 * network loses the money, so the network is always shown. An id the kit does not know is shown
 * as it is.
 */

export interface CoinDescription {
  /** The gateway's coin id, e.g. "USDT_TRX". */
  id: string
  /** Ticker, e.g. "USDT". */
  code: string
  /** Coin name, e.g. "Tether"; `null` when unknown. */
  name: string | null
  /** Network / chain, e.g. "Tron (TRC-20)"; `null` when unknown. */
  network: string | null
  /** One line for a shopper: "USDT · Tron (TRC-20)", "BTC · Bitcoin", or the raw id. */
  label: string
}

const COIN_NAMES: Readonly<Record<string, string>> = {
  BTC: "Bitcoin",
  LTC: "Litecoin",
  BCH: "Bitcoin Cash",
  DOGE: "Dogecoin",
  DASH: "Dash",
  ETH: "Ether",
  TRX: "TRON",
  BNB: "BNB",
  USDT: "Tether",
  USDC: "USD Coin",
  DAI: "Dai",
  XRP: "XRP",
  XMR: "Monero",
  SOL: "Solana",
  TON: "Toncoin",
  MATIC: "Polygon",
  POL: "Polygon",
}

/** The chain a native coin lives on. */
const NATIVE_NETWORKS: Readonly<Record<string, string>> = {
  BTC: "Bitcoin",
  LTC: "Litecoin",
  BCH: "Bitcoin Cash",
  DOGE: "Dogecoin",
  DASH: "Dash",
  ETH: "Ethereum",
  TRX: "Tron",
  BNB: "BNB Smart Chain",
  XRP: "XRP Ledger",
  XMR: "Monero",
  SOL: "Solana",
  TON: "TON",
  MATIC: "Polygon",
  POL: "Polygon",
}

/** The network named by the suffix of a token id (`USDT_<suffix>`), with its token standard. */
const TOKEN_NETWORKS: Readonly<Record<string, string>> = {
  ETH: "Ethereum (ERC-20)",
  ERC20: "Ethereum (ERC-20)",
  TRX: "Tron (TRC-20)",
  TRC20: "Tron (TRC-20)",
  BSC: "BNB Smart Chain (BEP-20)",
  BNB: "BNB Smart Chain (BEP-20)",
  BEP20: "BNB Smart Chain (BEP-20)",
  POLYGON: "Polygon",
  MATIC: "Polygon",
  SOL: "Solana (SPL)",
  TON: "TON (Jetton)",
  ARB: "Arbitrum One",
  ARBITRUM: "Arbitrum One",
  OP: "Optimism",
  BASE: "Base",
  AVAX: "Avalanche C-Chain",
}

/** Describes a coin id; `currency` (the gateway's coin code) is used when the id does not name one. */
export function describeCoin(psysCid: string, currency?: string | null): CoinDescription {
  const id = psysCid.trim()
  const upper = id.toUpperCase()
  const native = NATIVE_NETWORKS[upper]
  if (native !== undefined) {
    return { id, code: upper, name: COIN_NAMES[upper] ?? null, network: native, label: `${upper} · ${native}` }
  }
  const separator = upper.indexOf("_")
  if (separator > 0) {
    const code = upper.slice(0, separator)
    const network = TOKEN_NETWORKS[upper.slice(separator + 1)]
    if (network !== undefined) {
      return { id, code, name: COIN_NAMES[code] ?? null, network, label: `${code} · ${network}` }
    }
  }
  const code = typeof currency === "string" && currency.trim() !== "" ? currency.trim().toUpperCase() : upper
  return { id, code, name: COIN_NAMES[code] ?? null, network: null, label: id }
}

/** "USDT · Tron (TRC-20)" for "USDT_TRX"; the raw id for an unknown one. */
export function coinLabel(psysCid: string, currency?: string | null): string {
  return describeCoin(psysCid, currency).label
}
