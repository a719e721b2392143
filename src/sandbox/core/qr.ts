import QRCode from "qrcode"

import type { Network } from "./types"

const SCHEMES: Record<Network, string> = {
  bitcoin: "bitcoin",
  "bitcoin-testnet": "bitcoin",
  litecoin: "litecoin",
  ethereum: "ethereum",
  tron: "tron",
}

/** A payment URI for the QR code (BIP-21 style; tokens use their network's scheme). */
export function paymentUri(network: Network, address: string, amount: string | null): string {
  return amount === null ? `${SCHEMES[network]}:${address}` : `${SCHEMES[network]}:${address}?amount=${amount}`
}

/** spec §2.1 qr_code: "QR image, base64 data" — a PNG, base64 without the data-URL prefix. */
export async function qrBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, { type: "png", margin: 2, scale: 4, errorCorrectionLevel: "M" })
  return png.toString("base64")
}
