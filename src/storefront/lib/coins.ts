import { coinNetworkOf, networkNameOf } from "./wallet-networks.js"

/**
 * Coin and network names for the gateway's coin ids (`psys_cid`). A token id names its network:
 * `USDT_ETH` is USDT on Ethereum, `USDT_TRX` is USDT on TRON; a shopper who sends to the wrong
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
  /** Network / chain, e.g. "TRON (TRC-20)"; `null` when unknown. */
  network: string | null
  /** One line for a shopper: "USDT · TRON (TRC-20)", "BTC · Bitcoin", or the raw id. */
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
  AVAX: "Avalanche",
}

/**
 * Describes a coin id; `currency` (the gateway's coin code) is used when the id does not name one.
 * The network's name comes from the network table (lib/wallet-networks.ts).
 */
export function describeCoin(psysCid: string, currency?: string | null): CoinDescription {
  const id = psysCid.trim()
  const place = coinNetworkOf(id)
  if (place !== null) {
    const network = networkNameOf(place)
    return { id, code: place.ticker, name: COIN_NAMES[place.ticker] ?? null, network, label: `${place.ticker} · ${network}` }
  }
  const upper = id.toUpperCase()
  const code = typeof currency === "string" && currency.trim() !== "" ? currency.trim().toUpperCase() : upper
  return { id, code, name: COIN_NAMES[code] ?? null, network: null, label: id }
}

/** "USDT · TRON (TRC-20)" for "USDT_TRX"; the raw id for an unknown one. */
export function coinLabel(psysCid: string, currency?: string | null): string {
  return describeCoin(psysCid, currency).label
}
