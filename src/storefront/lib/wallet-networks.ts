/**
 * The networks the kit knows, one row each: the name a shopper reads, the coin ids that name the
 * network, and the wallet link (payment URI) its coins get. The one table: `describeCoin`
 * (lib/coins.ts) names networks from it, `validateCryptoAddress` (lib/addresses.ts) finds a coin's
 * network in it, `buildPaymentUri` (lib/payment-uri.ts) makes links from it. The reasons for every
 * link and every "no link" are in docs/storefront.md ("Wallet links (payment URIs)").
 *
 * Coin ids (`psys_cid`, spec §2.4 gives ids only): a network's own coin by its id (`BTC`, `TRX`,
 * `BNB`, `POL`), or as `<ticker>_<suffix>` where the ticker is the network's own coin (`ETH_BASE`:
 * ether on Base); a token as `<ticker>_<suffix>` (`USDT_TRX`, `USDC_POLYGON`), the suffix naming
 * the network. An id this table does not know gets no network name and no link.
 *
 * - BIP21 family, amount in decimal coins: BTC and BTC_TEST `bitcoin:` (a testnet address is
 *   refused by a mainnet wallet), LTC `litecoin:`, BCH `bitcoincash:` (CashAddr), DOGE `dogecoin:`,
 *   DASH `dash:`.
 * - SOL: Solana Pay transfer request `solana:<address>?amount=<decimal SOL>`. Native SOL only: an
 *   SPL token link (`spl-token=`) read by a wallet that ignores that parameter pays SOL instead.
 * - XMR: the Monero URI `monero:<address>?tx_amount=<decimal XMR>`.
 * - EVM chains, EIP-681 with the chain id written out (a wallet switches to that chain; MetaMask's
 *   deeplink documentation, docs.metamask.io "Use deeplinks", says so of the chain id):
 *   the own coin `ethereum:<address>@<chainId>?value=<wei>` (Ethereum 1, BNB Smart Chain 56,
 *   Polygon 137, Base 8453, Arbitrum One 42161, Optimism 10, Avalanche C-Chain 43114); a token
 *   `ethereum:<contract>@<chainId>/transfer?address=<recipient>&uint256=<smallest units>`, only for
 *   a token whose contract is in the row, taken from its issuer's documentation (cited at each
 *   contract). An unlisted token never gets a guessed contract.
 * - No link: TRON (TRX, TRC-20): its wallets read no common amount-carrying URI (TronLink opens
 *   transfers only through its own `tronlinkoutside://pull.activity?param=<JSON>` deeplink, for
 *   dapps on its whitelist, docs.tronlink.org/mobile/deeplink; Trust Wallet has its own
 *   `https://link.trustwallet.com/send?asset=c195…` route, developer.trustwallet.com "Deep
 *   Linking"), so a TRON payment shows the address, the amount and the network, and its QR code
 *   holds the bare address every TRON wallet scans. Also none for TON and XRP (deposits that may
 *   need a memo the invoice does not carry), SPL and TON tokens, and every id not listed.
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

/** EIP-681 payment of the chain's own coin: `ethereum:<address>@<chainId>?value=<wei>`. */
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

/** A token on an EVM chain: its contract (EIP-55 checksummed) and its `decimals()`. */
export interface EvmToken {
  contract: string
  decimals: number
}

/** One network of the table. */
export interface WalletNetwork {
  /** What a shopper reads for the network: "Ethereum", "TRON", "BNB Smart Chain". */
  name: string
  /** The standard of its tokens, shown after the name for a token: "TRON (TRC-20)". Null: a token is named by the network alone. */
  tokenStandard: string | null
  /** Tickers of the network's own coin; the first is shown (`ETH` on Base, `BTC` on Bitcoin Testnet). */
  ownTickers: readonly string[]
  /** Coin ids that are the network's own coin on their own ("BTC_TEST"; "POL", "MATIC"). */
  coins: readonly string[]
  /** Suffixes that name the network in a coin id (`USDT_<suffix>`, `ETH_<suffix>`). */
  suffixes: readonly string[]
  /** The link of the network's own coin; null where its wallets read no common payment URI. */
  link: DecimalAmountLink | Eip681NativeLink | null
  /** Tokens that get a link, by ticker (EVM chains only; the contract from the token's issuer). */
  tokens: Readonly<Record<string, EvmToken>>
}

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

/** A network without tokens the kit links to. */
function plain(name: string, ownTickers: readonly string[], link: WalletNetwork["link"], more: Partial<WalletNetwork> = {}): WalletNetwork {
  return { name, tokenStandard: null, ownTickers, coins: ownTickers, suffixes: [], link, tokens: {}, ...more }
}

/** An EVM chain: its own coin has 18 decimals; `tokens` are the ones with an issuer-listed contract. */
function evm(name: string, chainId: number, ids: Pick<WalletNetwork, "ownTickers" | "coins" | "suffixes">, tokens: WalletNetwork["tokens"], tokenStandard: string | null = null): WalletNetwork {
  return { name, tokenStandard, ...ids, link: { kind: "eip681-native", chainId, decimals: 18 }, tokens }
}

/**
 * The table. Keys are the networks' short names (`AddressNetwork` in lib/addresses.ts uses the
 * same). Token ids follow the suffixes listed in each row. The BEP-20 tokens (USDT, USDC on BNB
 * Smart Chain, issued by Binance, 18 decimals there) and USDT outside Ethereum get no link: no
 * issuer documentation page listing their contracts was found, so none is written here.
 */
export const WALLET_NETWORKS = {
  BTC: plain("Bitcoin", ["BTC"], bip21("bitcoin")),
  BTC_TEST: plain("Bitcoin Testnet", ["BTC"], bip21("bitcoin"), { coins: ["BTC_TEST"] }),
  LTC: plain("Litecoin", ["LTC"], bip21("litecoin")),
  BCH: plain("Bitcoin Cash", ["BCH"], bip21("bitcoincash")),
  DOGE: plain("Dogecoin", ["DOGE"], bip21("dogecoin")),
  DASH: plain("Dash", ["DASH"], bip21("dash")),
  ETH: evm(
    "Ethereum",
    ETHEREUM_CHAIN_ID,
    { ownTickers: ["ETH"], coins: ["ETH"], suffixes: ["ETH", "ERC20"] },
    {
      // Tether: tether.to/en/supported-protocols (ERC20 on Ethereum).
      USDT: { contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7", decimals: 6 },
      // Circle: developers.circle.com/stablecoins/usdc-contract-addresses (Ethereum).
      USDC: { contract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", decimals: 6 },
      // Maker: docs.makerdao.com/smart-contract-modules/dai-module (the Dai token).
      DAI: { contract: "0x6B175474E89094C44Da98b954EedeAC495271d0F", decimals: 18 },
    },
    "ERC-20"
  ),
  BSC: evm("BNB Smart Chain", 56, { ownTickers: ["BNB"], coins: ["BNB"], suffixes: ["BSC", "BNB", "BEP20"] }, {}, "BEP-20"),
  POLYGON: evm(
    "Polygon",
    137,
    { ownTickers: ["POL", "MATIC"], coins: ["POL", "MATIC"], suffixes: ["POLYGON", "MATIC", "POL"] },
    // Circle: developers.circle.com/stablecoins/usdc-contract-addresses (Polygon PoS; Circle's USDC, not the bridged USDC.e).
    { USDC: { contract: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", decimals: 6 } }
  ),
  ARBITRUM: evm(
    "Arbitrum One",
    42161,
    { ownTickers: ["ETH"], coins: [], suffixes: ["ARB", "ARBITRUM"] },
    // Circle: developers.circle.com/stablecoins/usdc-contract-addresses (Arbitrum).
    { USDC: { contract: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", decimals: 6 } }
  ),
  OPTIMISM: evm(
    "Optimism",
    10,
    { ownTickers: ["ETH"], coins: [], suffixes: ["OP", "OPTIMISM"] },
    // Circle: developers.circle.com/stablecoins/usdc-contract-addresses (OP Mainnet).
    { USDC: { contract: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", decimals: 6 } }
  ),
  BASE: evm(
    "Base",
    8453,
    { ownTickers: ["ETH"], coins: [], suffixes: ["BASE"] },
    // Circle: developers.circle.com/stablecoins/usdc-contract-addresses (Base).
    { USDC: { contract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", decimals: 6 } }
  ),
  AVALANCHE: evm(
    "Avalanche C-Chain",
    43114,
    { ownTickers: ["AVAX"], coins: ["AVAX"], suffixes: ["AVAX", "AVALANCHE"] },
    // Circle: developers.circle.com/stablecoins/usdc-contract-addresses (Avalanche C-Chain).
    { USDC: { contract: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", decimals: 6 } }
  ),
  TRON: plain("TRON", ["TRX"], null, { tokenStandard: "TRC-20", suffixes: ["TRX", "TRC20"] }),
  SOL: plain("Solana", ["SOL"], { kind: "decimal", scheme: "solana", amountParam: "amount", decimals: 9, address: SOLANA_ADDRESS }, { tokenStandard: "SPL", suffixes: ["SOL"] }),
  TON: plain("TON", ["TON"], null, { tokenStandard: "Jetton", suffixes: ["TON"] }),
  XRP: plain("XRP Ledger", ["XRP"], null),
  XMR: plain("Monero", ["XMR"], { kind: "decimal", scheme: "monero", amountParam: "tx_amount", decimals: 12, address: MONERO_ADDRESS }),
} as const satisfies Record<string, WalletNetwork>

/** A network of the table: "BTC", "ETH", "BSC", "TRON", … */
export type WalletNetworkId = keyof typeof WALLET_NETWORKS

const NETWORK_IDS = Object.keys(WALLET_NETWORKS) as WalletNetworkId[]

/** ERC-20 tokens on Ethereum mainnet, by ticker: contract and `decimals()` (the Ethereum row's tokens). */
export const ETHEREUM_ERC20_TOKENS: Readonly<Record<string, EvmToken>> = WALLET_NETWORKS.ETH.tokens

/** Where a coin id lives: its network, its ticker, and whether it is the network's own coin or a token on it. */
export interface CoinNetwork {
  id: WalletNetworkId
  network: WalletNetwork
  /** "USDT" for USDT_TRX, "ETH" for ETH_BASE, "BTC" for BTC_TEST. */
  ticker: string
  /** True for the network's own coin (TRX, ETH_BASE), false for a token on it (USDT_TRX). */
  own: boolean
}

/**
 * The network of a coin id (case and surrounding spaces ignored), or null when the table does not
 * know it. An id of the table's `coins` is that network's own coin; else the id splits at its
 * first `_` into a ticker and a suffix naming the network.
 */
export function coinNetworkOf(psysCid: string): CoinNetwork | null {
  const upper = psysCid.trim().toUpperCase()
  for (const id of NETWORK_IDS) {
    const network: WalletNetwork = WALLET_NETWORKS[id]
    if (network.coins.includes(upper)) {
      const ticker = network.ownTickers.includes(upper) ? upper : network.ownTickers[0] ?? upper
      return { id, network, ticker, own: true }
    }
  }
  const separator = upper.indexOf("_")
  if (separator <= 0) return null
  const ticker = upper.slice(0, separator)
  const suffix = upper.slice(separator + 1)
  const id = NETWORK_IDS.find((candidate) => (WALLET_NETWORKS[candidate] as WalletNetwork).suffixes.includes(suffix))
  if (id === undefined) return null
  const network: WalletNetwork = WALLET_NETWORKS[id]
  return { id, network, ticker, own: network.ownTickers.includes(ticker) }
}

/** The network's name for a coin on it: "TRON" for its own coin, "TRON (TRC-20)" for a token on it. */
export function networkNameOf(place: Pick<CoinNetwork, "network" | "own">): string {
  const { name, tokenStandard } = place.network
  return place.own || tokenStandard === null ? name : `${name} (${tokenStandard})`
}

/** The wallet link a coin id gets, or `null` when it gets none. */
export function walletLinkFor(psysCid: string): WalletLink | null {
  const place = coinNetworkOf(psysCid)
  if (place === null) return null
  const { network } = place
  if (place.own) return network.link
  const token = network.tokens[place.ticker]
  if (token === undefined || network.link?.kind !== "eip681-native") return null
  return { kind: "eip681-token", chainId: network.link.chainId, contract: token.contract, decimals: token.decimals }
}
