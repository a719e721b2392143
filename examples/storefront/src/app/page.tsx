import { addToCart } from "@/lib/data/cart"
import { listProducts } from "@/lib/data/products"
import { formatFiat } from "@/lib/money"

export const dynamic = "force-dynamic"

export default async function HomePage() {
  const products = await listProducts()
  return (
    <>
      <h1>Products</h1>
      {products.length === 0 ? <p>The store has no products yet.</p> : null}
      {products.map((product) => {
        const variant = product.variants?.[0]
        const price = variant?.calculated_price
        return (
          <section key={product.id} className="card" aria-labelledby={`product-${product.id}`}>
            <h2 id={`product-${product.id}`}>{product.title}</h2>
            {product.description ? <p className="muted">{product.description}</p> : null}
            <p>{formatFiat(price?.calculated_amount, price?.currency_code)}</p>
            {variant ? (
              <form action={addToCart}>
                <input type="hidden" name="variant_id" value={variant.id} />
                <button type="submit">Add to cart</button>
              </form>
            ) : null}
          </section>
        )
      })}
    </>
  )
}
