import Link from "next/link"
import { redirect } from "next/navigation"
import { CryptoCheckout } from "@/components/crypto-checkout"
import { PaymentStep } from "@/components/payment-step"
import { listPaymentProviders, listShippingOptions, placeOrder, retrieveCart, setAddresses, setShippingMethod } from "@/lib/data/cart"
import { getCryptoCurrencies } from "@/lib/data/crypto"
import { formatFiat } from "@/lib/money"
import { isCryptoProvider, paymentTitle } from "@/lib/providers"

export const dynamic = "force-dynamic"

const STEPS = ["address", "delivery", "payment", "review"] as const
type Step = (typeof STEPS)[number]

export default async function CheckoutPage({ searchParams }: { searchParams: Promise<{ step?: string }> }) {
  const cart = await retrieveCart()
  if (cart === null || (cart.items ?? []).length === 0) {
    redirect("/cart")
  }
  const requested = (await searchParams).step
  const step: Step = STEPS.includes(requested as Step) ? (requested as Step) : "address"
  const session = cart.payment_collection?.payment_sessions?.find((candidate) => candidate.status === "pending") ?? null
  const address = cart.shipping_address

  return (
    <>
      <h1>Checkout</h1>
      <ol className="steps" aria-label="Checkout steps">
        {STEPS.map((name) => (
          <li key={name} aria-current={name === step ? "step" : undefined}>
            {name[0].toUpperCase() + name.slice(1)}
          </li>
        ))}
      </ol>

      {step === "address" ? (
        <form action={setAddresses} className="card">
          <h2>Shipping address</h2>
          <label>
            Email <input type="email" name="email" required autoComplete="email" defaultValue={cart.email ?? ""} />
          </label>
          <label>
            First name <input type="text" name="first_name" required autoComplete="given-name" defaultValue={address?.first_name ?? ""} />
          </label>
          <label>
            Last name <input type="text" name="last_name" required autoComplete="family-name" defaultValue={address?.last_name ?? ""} />
          </label>
          <label>
            Address <input type="text" name="address_1" required autoComplete="address-line1" defaultValue={address?.address_1 ?? ""} />
          </label>
          <label>
            City <input type="text" name="city" required autoComplete="address-level2" defaultValue={address?.city ?? ""} />
          </label>
          <label>
            Postal code <input type="text" name="postal_code" required autoComplete="postal-code" defaultValue={address?.postal_code ?? ""} />
          </label>
          <label>
            Country
            <select name="country_code" required defaultValue={address?.country_code ?? cart.region?.countries?.[0]?.iso_2 ?? ""}>
              {(cart.region?.countries ?? []).map((country) => (
                <option key={country.iso_2} value={country.iso_2 ?? ""}>
                  {country.display_name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Continue to delivery</button>
        </form>
      ) : null}

      {step === "delivery" ? <DeliveryStep cartId={cart.id} selected={cart.shipping_methods?.[0]?.shipping_option_id ?? null} currency={cart.currency_code} /> : null}

      {step === "payment" ? (
        <div className="card">
          <h2>Payment</h2>
          <PaymentStepLoader regionId={cart.region_id ?? ""} providerId={session?.provider_id ?? null} coin={typeof session?.data?.psys_cid === "string" ? session.data.psys_cid : null} />
        </div>
      ) : null}

      {step === "review" ? (
        <div className="card">
          <h2>Review</h2>
          <p className="row">
            <span>Items</span> <span>{formatFiat(cart.item_total, cart.currency_code)}</span>
          </p>
          <p className="row">
            <span>Shipping</span> <span>{formatFiat(cart.shipping_total, cart.currency_code)}</span>
          </p>
          <p className="row">
            <strong>Total</strong> <strong data-testid="cart-total">{formatFiat(cart.total, cart.currency_code)}</strong>
          </p>
          {session === null ? (
            <p>
              Choose a payment method first. <Link href="/checkout?step=payment">Back to payment</Link>
            </p>
          ) : (
            <>
              <p>
                Paying with: <strong>{paymentTitle(session.provider_id)}</strong> (<Link href="/checkout?step=payment">change</Link>)
              </p>
              {isCryptoProvider(session.provider_id) ? (
                <CryptoCheckout
                  key={String(session.id)}
                  cartId={cart.id}
                  whiteLabel={typeof session.data?.wallet_hash === "string"}
                  invoiceUrl={typeof session.data?.invoice_url === "string" ? session.data.invoice_url : null}
                />
              ) : (
                <form action={placeOrder}>
                  <button type="submit">Place order</button>
                </form>
              )}
            </>
          )}
        </div>
      ) : null}
    </>
  )
}

async function DeliveryStep(props: { cartId: string; selected: string | null; currency: string }) {
  const options = await listShippingOptions(props.cartId)
  return (
    <form action={setShippingMethod} className="card">
      <fieldset>
        <legend>Delivery</legend>
        {options.map((option, index) => (
          <label key={option.id}>
            <input type="radio" name="option_id" value={option.id} required defaultChecked={props.selected === option.id || (props.selected === null && index === 0)} />{" "}
            {option.name} ({formatFiat(option.amount, props.currency)})
          </label>
        ))}
      </fieldset>
      <button type="submit">Continue to payment</button>
    </form>
  )
}

async function PaymentStepLoader(props: { regionId: string; providerId: string | null; coin: string | null }) {
  const providers = await listPaymentProviders(props.regionId)
  const currencies = providers.some((provider) => isCryptoProvider(provider.id)) ? await getCryptoCurrencies() : null
  return (
    <PaymentStep
      options={providers.map((provider) => ({ id: provider.id, title: paymentTitle(provider.id) }))}
      currencies={currencies}
      initialProviderId={props.providerId}
      initialCoin={props.coin}
    />
  )
}
