import type { Metadata } from "next"
import Link from "next/link"
import type { ReactNode } from "react"
import "medusa-payment-crypto/storefront/styles.css"
import "./globals.css"

export const metadata: Metadata = {
  title: "Crypto demo store",
  description: "A minimal Medusa storefront paying with medusa-payment-crypto",
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">
            Crypto demo store
          </Link>
          <nav aria-label="Main">
            <Link href="/cart">Cart</Link>
          </nav>
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  )
}
