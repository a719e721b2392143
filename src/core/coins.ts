/** What a coin ID (`psys_cid`, spec §2.4) looks like: the one rule for options, settings and order rules. */
export const COIN_ID_PATTERN = /^[A-Za-z0-9_.-]{1,32}$/

/**
 * The network a coin travels on: the suffix of a token's psys_cid (USDT_TRX → TRX, spec §1 item 6),
 * else the coin itself. What the storefront shows beside an amount, so nobody pays on the wrong chain.
 */
export function networkOf(psysCid: string | null): string | null {
  if (psysCid === null) return null
  const cut = psysCid.lastIndexOf("_")
  return cut > 0 && cut < psysCid.length - 1 ? psysCid.slice(cut + 1) : psysCid
}
