import Link from "next/link"
import { retrieveCart } from "@/lib/data/cart"
import { formatFiat } from "@/lib/money"

export const dynamic = "force-dynamic"

export default async function CartPage() {
  const cart = await retrieveCart()
  if (cart === null || (cart.items ?? []).length === 0) {
    return (
      <>
        <h1>Cart</h1>
        <p>Your cart is empty.</p>
        <Link href="/">Browse products</Link>
      </>
    )
  }
  return (
    <>
      <h1>Cart</h1>
      <ul className="card">
        {(cart.items ?? []).map((item) => (
          <li key={item.id} className="row">
            <span>
              {item.product_title} × {item.quantity}
            </span>
            <span>{formatFiat(item.total, cart.currency_code)}</span>
          </li>
        ))}
      </ul>
      <p className="row">
        <strong>Subtotal</strong> <strong data-testid="cart-subtotal">{formatFiat(cart.item_total, cart.currency_code)}</strong>
      </p>
      <Link className="button" href="/checkout?step=address">
        Checkout
      </Link>
    </>
  )
}
