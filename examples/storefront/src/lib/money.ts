/**
 * Shows a Medusa amount in the cart's currency. Medusa's store API sends totals as JSON numbers in
 * major units (10.5 = €10.50): this only formats what the store computed, it never does arithmetic.
 * Crypto amounts are decimal strings and are shown as they are (the kit's components do that).
 */
export function formatFiat(amount: number | null | undefined, currencyCode: string | null | undefined): string {
  if (amount === null || amount === undefined || !currencyCode) return ""
  return new Intl.NumberFormat("en", { style: "currency", currency: currencyCode.toUpperCase() }).format(amount)
}
