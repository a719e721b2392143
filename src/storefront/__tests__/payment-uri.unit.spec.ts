import { ETHEREUM_ERC20_TOKENS, WALLET_NETWORKS, buildPaymentLink, buildPaymentUri, describeCoin, paymentUriScheme, toSmallestUnits, walletLinkFor } from "../index"

// Wallet links per coin: the forms and the reasons are in docs/storefront.md ("Wallet links (payment URIs)").

const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const BCH = "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"
const EVM = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const USDT = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
const DAI = "0x6B175474E89094C44Da98b954EedeAC495271d0F"
// Circle's USDC contracts (developers.circle.com/stablecoins/usdc-contract-addresses).
const USDC_POLYGON = "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
const USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
const USDC_OPTIMISM = "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"
const USDC_AVALANCHE = "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"
const TRON = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"
const SOL = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtVg"
const XMR = `4${"A".repeat(94)}`

type Row = [coin: string, address: string, amount: string | null | undefined, expected: string | null]

describe("buildPaymentUri: one row per coin", () => {
  it.each<Row>([
    // BIP21: decimal coins, trailing zeros trimmed, never exponent notation.
    ["BTC", BTC, "0.00123400", `bitcoin:${BTC}?amount=0.001234`],
    ["BTC", BTC, "5.000", `bitcoin:${BTC}?amount=5`],
    ["BTC", BTC, "1e-8", `bitcoin:${BTC}?amount=0.00000001`],
    ["BTC", BTC, "0.00000001", `bitcoin:${BTC}?amount=0.00000001`],
    ["BTC", BTC, "21000000", `bitcoin:${BTC}?amount=21000000`],
    ["BTC", BTC, "0.000000001", `bitcoin:${BTC}`],
    ["BTC", BTC, "0.100000000000", `bitcoin:${BTC}?amount=0.1`],
    ["BTC", BTC, undefined, `bitcoin:${BTC}`],
    ["btc", ` ${BTC} `, "1", `bitcoin:${BTC}?amount=1`],
    ["BTC", `bitcoin:${BTC}`, "1", `bitcoin:${BTC}?amount=1`],
    ["BTC_TEST", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "0.5", "bitcoin:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx?amount=0.5"],
    ["LTC", "ltc1qg82tpr5y7ylwwxvxz9x3yfm2kcvfhrcxzs6tlt", "1.25000000", "litecoin:ltc1qg82tpr5y7ylwwxvxz9x3yfm2kcvfhrcxzs6tlt?amount=1.25"],
    ["DOGE", "D8vFz4p1L37jdg47HXKtSHA5uYLYxbGgPD", "100.00", "dogecoin:D8vFz4p1L37jdg47HXKtSHA5uYLYxbGgPD?amount=100"],
    ["DASH", "XpESxaUmonkq8RaLLp46Brx2K39ggQe226", "0.3", "dash:XpESxaUmonkq8RaLLp46Brx2K39ggQe226?amount=0.3"],
    // BCH: a CashAddr address with its prefix is not prefixed twice, whatever its case.
    ["BCH", BCH, "0.5", `bitcoincash:${BCH}?amount=0.5`],
    ["BCH", `bitcoincash:${BCH}`, "0.5", `bitcoincash:${BCH}?amount=0.5`],
    ["BCH", `BITCOINCASH:${BCH.toUpperCase()}`, "0.5", `bitcoincash:${BCH.toUpperCase()}?amount=0.5`],
    // A malformed address gets no link (no URI injection through the address).
    ["BTC", "bc1q?amount=9", "1", null],
    ["BTC", "bc1q example", "1", null],
    // Solana Pay (native SOL, 9 decimals) and Monero (tx_amount, 12 decimals).
    ["SOL", SOL, "1.500000000", `solana:${SOL}?amount=1.5`],
    ["SOL", SOL, "0.0000000001", `solana:${SOL}`],
    ["XMR", XMR, "0.000000000001", `monero:${XMR}?tx_amount=0.000000000001`],
    // ETH: EIP-681, exact wei.
    ["ETH", EVM, "0.000000000000000001", `ethereum:${EVM}@1?value=1`],
    ["ETH", EVM, "1", `ethereum:${EVM}@1?value=1000000000000000000`],
    ["ETH", EVM, "0.05", `ethereum:${EVM}@1?value=50000000000000000`],
    ["ETH", EVM, "123.456789012345678", `ethereum:${EVM}@1?value=123456789012345678000`],
    ["ETH", EVM, "123456789012345678901234567890.123456789012345678", `ethereum:${EVM}@1?value=123456789012345678901234567890123456789012345678`],
    // Exactly 18 decimals: every digit kept (a float would give 123456789012345680000).
    ["ETH", EVM, "123.456789012345678901", `ethereum:${EVM}@1?value=123456789012345678901`],
    // 19 decimals: not rounded, the amount is left out (the shopper types the amount shown).
    ["ETH", EVM, "123.4567890123456789012", `ethereum:${EVM}@1`],
    ["ETH", EVM, "0.0000000000000000001", `ethereum:${EVM}@1`],
    ["ETH", EVM, "1.0000000000000000000000", `ethereum:${EVM}@1?value=1000000000000000000`],
    ["ETH", EVM, null, `ethereum:${EVM}@1`],
    ["ETH", "0xabc", "1", null],
    ["ETH", "742d35Cc6634C0532925a3b844Bc454e4438f44e", "1", null],
    // ERC-20 on Ethereum: contract, chain id 1, recipient, amount in the token's smallest unit.
    ["USDT_ETH", EVM, "10.5", `ethereum:${USDT}@1/transfer?address=${EVM}&uint256=10500000`],
    ["USDT_ERC20", EVM, "49.900000", `ethereum:${USDT}@1/transfer?address=${EVM}&uint256=49900000`],
    ["USDT_ETH", EVM, "0.000001", `ethereum:${USDT}@1/transfer?address=${EVM}&uint256=1`],
    ["USDC_ETH", EVM, "1234567.891", `ethereum:${USDC}@1/transfer?address=${EVM}&uint256=1234567891000`],
    ["USDC_ERC20", EVM, "0.1", `ethereum:${USDC}@1/transfer?address=${EVM}&uint256=100000`],
    ["DAI_ETH", EVM, "2.5", `ethereum:${DAI}@1/transfer?address=${EVM}&uint256=2500000000000000000`],
    // A token amount with more decimals than the token has: no link (a token link is only given complete).
    ["USDT_ETH", EVM, "10.0000001", null],
    ["USDT_ETH", EVM, null, null],
    ["USDT_ETH", EVM, "0", null],
    ["USDT_ETH", "0xabc", "10", null],
    ["USDT_ETH", USDT, "10", null],
    // An ERC-20 the table does not list never gets a guessed contract.
    ["LINK_ETH", EVM, "1", null],
    // TRON: no amount-carrying URI its wallets read alike.
    ["TRX", TRON, "100", null],
    ["USDT_TRX", TRON, "10", null],
    ["USDT_TRC20", TRON, "10", null],
    // The other EVM chains' own coins: EIP-681 with the chain id, exact wei.
    ["BNB", EVM, "1", `ethereum:${EVM}@56?value=1000000000000000000`],
    ["BNB_BSC", EVM, "0.5", `ethereum:${EVM}@56?value=500000000000000000`],
    ["POL", EVM, "2.25", `ethereum:${EVM}@137?value=2250000000000000000`],
    ["MATIC", EVM, "1", `ethereum:${EVM}@137?value=1000000000000000000`],
    ["ETH_BASE", EVM, "0.01", `ethereum:${EVM}@8453?value=10000000000000000`],
    ["ETH_ARB", EVM, "0.01", `ethereum:${EVM}@42161?value=10000000000000000`],
    ["ETH_ARBITRUM", EVM, "0.000000000000000001", `ethereum:${EVM}@42161?value=1`],
    ["ETH_OP", EVM, "0.01", `ethereum:${EVM}@10?value=10000000000000000`],
    ["ETH_OPTIMISM", EVM, "1.5", `ethereum:${EVM}@10?value=1500000000000000000`],
    ["AVAX", EVM, "3", `ethereum:${EVM}@43114?value=3000000000000000000`],
    // 19 decimals: not rounded, the link has no amount.
    ["BNB", EVM, "0.0000000000000000001", `ethereum:${EVM}@56`],
    ["AVAX", EVM, null, `ethereum:${EVM}@43114`],
    ["POL", "0xabc", "1", null],
    // USDC on the other EVM chains: Circle's contract, the chain id, 6 decimals.
    ["USDC_POLYGON", EVM, "10", `ethereum:${USDC_POLYGON}@137/transfer?address=${EVM}&uint256=10000000`],
    ["USDC_MATIC", EVM, "0.5", `ethereum:${USDC_POLYGON}@137/transfer?address=${EVM}&uint256=500000`],
    ["USDC_POL", EVM, "1", `ethereum:${USDC_POLYGON}@137/transfer?address=${EVM}&uint256=1000000`],
    ["USDC_BASE", EVM, "49.900000", `ethereum:${USDC_BASE}@8453/transfer?address=${EVM}&uint256=49900000`],
    ["USDC_ARB", EVM, "10", `ethereum:${USDC_ARBITRUM}@42161/transfer?address=${EVM}&uint256=10000000`],
    ["USDC_ARBITRUM", EVM, "0.000001", `ethereum:${USDC_ARBITRUM}@42161/transfer?address=${EVM}&uint256=1`],
    ["USDC_OP", EVM, "10", `ethereum:${USDC_OPTIMISM}@10/transfer?address=${EVM}&uint256=10000000`],
    ["USDC_OPTIMISM", EVM, "10", `ethereum:${USDC_OPTIMISM}@10/transfer?address=${EVM}&uint256=10000000`],
    ["USDC_AVAX", EVM, "1234.5", `ethereum:${USDC_AVALANCHE}@43114/transfer?address=${EVM}&uint256=1234500000`],
    // More decimals than the token has, or no amount: no link.
    ["USDC_POLYGON", EVM, "10.0000001", null],
    ["USDC_BASE", EVM, null, null],
    ["USDC_AVAX", USDC_AVALANCHE, "10", null],
    // Tokens whose contract no issuer page lists (BEP-20 USDT/USDC, USDT off Ethereum): no guessed contract.
    ["USDT_BSC", EVM, "10", null],
    ["USDT_BEP20", EVM, "10", null],
    ["USDC_BSC", EVM, "10", null],
    ["USDT_POLYGON", EVM, "10", null],
    ["USDT_ARB", EVM, "10", null],
    ["USDT_AVAX", EVM, "10", null],
    ["DAI_BASE", EVM, "10", null],
    // Tokens on other chains, memo-based chains, unknown ids.
    ["USDC_SOL", SOL, "10", null],
    ["TON", "EQD2NmD_lH5f5u1Kj3KfGyTvhZSX0Eg6qp2a5IQUKXxOG21n", "1", null],
    ["XRP", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "1", null],
    ["FOO", BTC, "1", null],
    ["", BTC, "1", null],
    // Empty address.
    ["BTC", "", "1", null],
    ["BTC", "   ", "1", null],
    ["ETH", "", "1", null],
    ["USDT_ETH", "", "10", null],
    // Negative, zero or garbage amounts: a native coin keeps its link without an amount.
    ["BTC", BTC, "-1", `bitcoin:${BTC}`],
    ["BTC", BTC, "0", `bitcoin:${BTC}`],
    ["BTC", BTC, "0.000", `bitcoin:${BTC}`],
    ["BTC", BTC, "abc", `bitcoin:${BTC}`],
    ["BTC", BTC, "1,5", `bitcoin:${BTC}`],
    ["BTC", BTC, "NaN", `bitcoin:${BTC}`],
    ["BTC", BTC, "Infinity", `bitcoin:${BTC}`],
    ["BTC", BTC, "", `bitcoin:${BTC}`],
    ["ETH", EVM, "-0.5", `ethereum:${EVM}@1`],
    ["ETH", EVM, "0x10", `ethereum:${EVM}@1`],
    ["USDT_ETH", EVM, "-10", null],
    ["USDT_ETH", EVM, "ten", null],
  ])("%s %s %s → %s", (coin, address, amount, expected) => {
    expect(buildPaymentUri({ psysCid: coin, address, amount })).toBe(expected)
  })

  it("never writes exponent notation or a float-rounded wei value", () => {
    const uri = buildPaymentUri({ psysCid: "ETH", address: EVM, amount: "1e-18" })
    expect(uri).toBe(`ethereum:${EVM}@1?value=1`)
    const big = buildPaymentUri({ psysCid: "ETH", address: EVM, amount: "9007199254740993" })
    expect(big).toBe(`ethereum:${EVM}@1?value=9007199254740993000000000000000000`)
    expect(buildPaymentUri({ psysCid: "BTC", address: BTC, amount: "1E-7" })).toBe(`bitcoin:${BTC}?amount=0.0000001`)
  })
})

describe("paymentUriScheme", () => {
  it.each<[string, string | null]>([
    ["BTC", "bitcoin"],
    ["BTC_TEST", "bitcoin"],
    ["LTC", "litecoin"],
    ["BCH", "bitcoincash"],
    ["DOGE", "dogecoin"],
    ["DASH", "dash"],
    ["SOL", "solana"],
    ["XMR", "monero"],
    ["ETH", "ethereum"],
    ["USDT_ETH", "ethereum"],
    ["USDC_ERC20", "ethereum"],
    ["TRX", null],
    ["USDT_TRX", null],
    ["BNB", "ethereum"],
    ["AVAX", "ethereum"],
    ["ETH_BASE", "ethereum"],
    ["USDC_BASE", "ethereum"],
    ["USDT_BSC", null],
    ["FOO", null],
  ])("%s → %s", (coin, scheme) => {
    expect(paymentUriScheme(coin)).toBe(scheme)
  })
})

describe("wallet network table", () => {
  it("names the chain and contract of every token link", () => {
    expect(walletLinkFor("USDT_ETH")).toEqual({ kind: "eip681-token", chainId: 1, contract: USDT, decimals: 6 })
    expect(walletLinkFor("usdc_erc20")).toEqual({ kind: "eip681-token", chainId: 1, contract: USDC, decimals: 6 })
    expect(walletLinkFor("USDC_POLYGON")).toEqual({ kind: "eip681-token", chainId: 137, contract: USDC_POLYGON, decimals: 6 })
    expect(walletLinkFor("USDT_TRX")).toBeNull()
    for (const token of Object.values(ETHEREUM_ERC20_TOKENS)) {
      expect(token.contract).toMatch(/^0x[0-9a-fA-F]{40}$/)
    }
  })

  it("gives each EVM chain its EIP-155 chain id, and its own coin 18 decimals", () => {
    const chains = Object.fromEntries(
      Object.entries(WALLET_NETWORKS).flatMap(([id, network]) => (network.link?.kind === "eip681-native" ? [[id, [network.link.chainId, network.link.decimals]]] : []))
    )
    expect(chains).toEqual({
      ETH: [1, 18],
      BSC: [56, 18],
      POLYGON: [137, 18],
      ARBITRUM: [42161, 18],
      OPTIMISM: [10, 18],
      BASE: [8453, 18],
      AVALANCHE: [43114, 18],
    })
  })

  it("lists only token contracts that look like EVM addresses, each on an EVM chain", () => {
    for (const network of Object.values(WALLET_NETWORKS)) {
      for (const token of Object.values(network.tokens)) {
        expect(network.link?.kind).toBe("eip681-native")
        expect(token.contract).toMatch(/^0x[0-9a-fA-F]{40}$/)
      }
    }
  })

  it.each<[coin: string, network: string]>([
    ["TRX", "TRON"],
    ["USDT_TRX", "TRON (TRC-20)"],
    ["USDT_TRC20", "TRON (TRC-20)"],
    ["USDT_BSC", "BNB Smart Chain (BEP-20)"],
    ["USDT_BEP20", "BNB Smart Chain (BEP-20)"],
    ["USDT_POLYGON", "Polygon"],
    ["USDT_ARB", "Arbitrum One"],
    ["USDT_AVAX", "Avalanche C-Chain"],
    ["USDC_SOL", "Solana (SPL)"],
    ["TON", "TON"],
    ["XRP", "XRP Ledger"],
  ])("a coin without a link still names its network: %s → %s", (coin, network) => {
    expect(buildPaymentUri({ psysCid: coin, address: EVM, amount: "1" })).toBeNull()
    expect(describeCoin(coin).network).toBe(network)
  })

  it.each<[coin: string, label: string]>([
    ["BTC_TEST", "BTC · Bitcoin Testnet"],
    ["ETH", "ETH · Ethereum"],
    ["BNB", "BNB · BNB Smart Chain"],
    ["POL", "POL · Polygon"],
    ["ETH_BASE", "ETH · Base"],
    ["ETH_ARB", "ETH · Arbitrum One"],
    ["ETH_OP", "ETH · Optimism"],
    ["AVAX", "AVAX · Avalanche C-Chain"],
    ["USDC_POLYGON", "USDC · Polygon"],
    ["USDC_BASE", "USDC · Base"],
  ])("a coin with a link names its network: %s → %s", (coin, label) => {
    expect(describeCoin(coin).label).toBe(label)
  })
})

describe("buildPaymentLink", () => {
  it("says which amount the link carries, and none when it leaves the amount out", () => {
    expect(buildPaymentLink({ psysCid: "BTC", address: BTC, amount: "0.00123400" })).toEqual({ uri: `bitcoin:${BTC}?amount=0.001234`, amount: "0.00123400" })
    expect(buildPaymentLink({ psysCid: "BNB", address: EVM, amount: "0.0000000000000000001" })).toEqual({ uri: `ethereum:${EVM}@56`, amount: null })
    expect(buildPaymentLink({ psysCid: "USDC_BASE", address: EVM, amount: "1" })).toEqual({
      uri: `ethereum:${USDC_BASE}@8453/transfer?address=${EVM}&uint256=1000000`,
      amount: "1",
    })
    expect(buildPaymentLink({ psysCid: "USDT_TRX", address: TRON, amount: "1" })).toBeNull()
  })
})

describe("toSmallestUnits", () => {
  it.each<[string, number, string | null]>([
    ["10.5", 6, "10500000"],
    ["0.000000000000000001", 18, "1"],
    ["123.456789012345678901", 18, "123456789012345678901"],
    ["123.4567890123456789012", 18, null],
    ["1.500000000000000000000", 18, "1500000000000000000"],
    ["0", 6, "0"],
    ["000.010", 6, "10000"],
    ["7", 0, "7"],
    ["7.1", 0, null],
    ["-1", 6, null],
    ["1e3", 6, null],
    [".5", 6, null],
    ["5.", 6, null],
    ["", 6, null],
  ])("%s with %d decimals → %s", (amount, decimals, expected) => {
    expect(toSmallestUnits(amount, decimals)).toBe(expected)
  })
})
