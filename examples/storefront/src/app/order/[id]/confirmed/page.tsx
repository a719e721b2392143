import { CryptoPaymentSummary } from "medusa-payment-crypto/storefront"
import { notFound } from "next/navigation"
import { retrieveOrder } from "@/lib/data/orders"
import { formatFiat } from "@/lib/money"
import { isCryptoProvider, paymentTitle } from "@/lib/providers"

export const dynamic = "force-dynamic"

export default async function OrderConfirmedPage({ params }: { params: Promise<{ id: string }> }) {
  const order = await retrieveOrder((await params).id)
  if (order === null) {
    notFound()
  }
  const payment = order.payment_collections?.[0]?.payments?.[0]
  return (
    <>
      <h1>Thank you!</h1>
      <p data-testid="order-confirmed">
        Order <strong>#{order.display_id}</strong> is confirmed.
      </p>
      <ul className="card">
        {(order.items ?? []).map((item) => (
          <li key={item.id} className="row">
            <span>
              {item.product_title} × {item.quantity}
            </span>
            <span>{formatFiat(item.total, order.currency_code)}</span>
          </li>
        ))}
        <li className="row">
          <strong>Total</strong> <strong>{formatFiat(order.total, order.currency_code)}</strong>
        </li>
      </ul>
      {payment ? (
        <section className="card">
          {/* An unknown provider falls back to its id: the starter's order page crashes there. */}
          <h2>Payment: {paymentTitle(payment.provider_id)}</h2>
          {isCryptoProvider(payment.provider_id) ? <CryptoPaymentSummary data={payment.data} headingLevel={3} /> : null}
        </section>
      ) : null}
    </>
  )
}
