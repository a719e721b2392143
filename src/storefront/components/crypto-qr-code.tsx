"use client"

import QRCode from "qrcode"
import { useMemo } from "react"
import { cx } from "../lib/class-names.js"

export interface CryptoQrCodeProps {
  /** What the code holds: a payment URI (`bitcoin:...?amount=`) or the bare address. */
  value: string
  /** Text alternative, read by screen readers (the SVG is `role="img"`). */
  alt: string
  /** Rendered size in CSS pixels (default 192). */
  size?: number
  className?: string
}

/**
 * A QR code as inline SVG: `qrcode` encodes (synchronously, so it renders on the server too), one
 * path draws the dark modules with a 4-module quiet zone. Black on white in every theme: wallet
 * scanners need that contrast, so the dark theme keeps a white square.
 */
export function CryptoQrCode({ value, alt, size = 192, className }: CryptoQrCodeProps) {
  const { path, dimension } = useMemo(() => {
    const { modules } = QRCode.create(value, { errorCorrectionLevel: "M" })
    const quiet = 4
    let d = ""
    for (let row = 0; row < modules.size; row += 1) {
      for (let col = 0; col < modules.size; col += 1) {
        if (modules.get(row, col)) d += `M${col + quiet} ${row + quiet}h1v1h-1z`
      }
    }
    return { path: d, dimension: modules.size + quiet * 2 }
  }, [value])

  return (
    <svg
      className={cx("mpc-qr", className)}
      role="img"
      aria-label={alt}
      width={size}
      height={size}
      viewBox={`0 0 ${dimension} ${dimension}`}
      shapeRendering="crispEdges"
      data-value={value}
    >
      <title>{alt}</title>
      <rect className="mpc-qr-background" width={dimension} height={dimension} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
