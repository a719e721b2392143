// One scripted checkout, as a storefront does it with @medusajs/js-sdk: cart, item, address, shipping,
// crypto payment session; then the shopper pays the invoice (through the sandbox's control API) and the
// gateway's signed callback places and captures the order. Used by `npm run demo`.
const path = require("path")
const Medusa = require("@medusajs/js-sdk").default
const { waitFor } = require("./lib/processes")

// The demo's shopper (the demo store's carts route, demo/src/api/demo-test/carts, uses the same address).
const address = require("../demo/src/lib/shopper-address.json")

/**
 * The sandbox's typed control client: `sandbox.control` when the caller hands a started sandbox,
 * else one connected by URL and api_key, from the compiled sandbox (`medusa plugin:build`, which
 * scripts/demo.js runs first).
 */
function sandboxControlOf(sandbox) {
  if (sandbox.control) {
    return sandbox.apiKey ? sandbox.control.as(sandbox.apiKey) : sandbox.control
  }
  const { connectSandboxControl } = require(path.join(__dirname, "..", ".medusa/server/src/sandbox/index.js"))
  return connectSandboxControl({ url: sandbox.url, apiKey: sandbox.apiKey })
}

/**
 * The plugin's store route a storefront polls (GET /store/crypto/payment-status): the cart's order id
 * once placed and its crypto invoice. Throws on an answer that is not 2xx.
 */
async function paymentStatus({ backendUrl, publishableKey }, cartId) {
  const response = await fetch(`${backendUrl}/store/crypto/payment-status?cart_id=${encodeURIComponent(cartId)}`, {
    headers: { "x-publishable-api-key": publishableKey },
  })
  if (!response.ok) {
    throw new Error(`payment-status answered ${response.status}`)
  }
  return response.json()
}

/**
 * One crypto checkout through the store API, paid through the sandbox. With `detectionFirst`, the
 * shopper's payment is first seen unconfirmed (the order is placed on detection, the plugin's default
 * `orderOnDetection`), then confirmed (the order's payment captured): the path that needs Medusa's
 * `pending_authorization` handling of an order placed before its payment.
 */
async function runCheckout(opts) {
  const { backendUrl, publishableKey, regionId, variantId, shippingOptionId, sandbox, admin, log, detectionFirst = false } = opts
  const store = new Medusa({ baseUrl: backendUrl, publishableKey })

  log("storefront: creating a cart, adding a product, address and shipping…")
  let { cart } = await store.store.cart.create({ region_id: regionId, email: "ada@example.com" })
  ;({ cart } = await store.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity: 1 }))
  ;({ cart } = await store.store.cart.update(cart.id, { shipping_address: address, billing_address: address }))
  ;({ cart } = await store.store.cart.addShippingMethod(cart.id, { option_id: shippingOptionId }))

  log("storefront: the shopper picks crypto (BTC) at checkout…")
  const { payment_collection: collection } = await store.store.payment.initiatePaymentSession(cart, {
    provider_id: "pp_crypto_crypto",
    data: { psys_cid: "BTC" },
  })
  const session = collection.payment_sessions.find((s) => s.provider_id === "pp_crypto_crypto")
  const invoice = session.data
  log(`gateway invoice ${invoice.txn_id} for ${cart.total} ${cart.currency_code.toUpperCase()}: ${invoice.invoice_url}`)

  const control = sandboxControlOf(sandbox)
  if (detectionFirst) {
    log("shopper: paying the invoice in full, not yet confirmed (sandbox)…")
    await control.pay(invoice.txn_id, { confirmations: 0 })
  } else {
    log("shopper: paying the invoice in full (sandbox)…")
    await control.pay(invoice.txn_id)
  }

  // The signed callback places the order; a storefront that comes back also completes the cart, and
  // both give the same order.
  const orderId = await waitFor(
    "the order to be placed by the gateway's callback",
    async () => (await paymentStatus({ backendUrl, publishableKey }, cart.id).catch(() => null))?.order_id || null,
    60000
  )

  const adminSdk = new Medusa({ baseUrl: backendUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } })
  await adminSdk.auth.login("user", "emailpass", { email: admin.email, password: admin.password })
  const retrieve = async () =>
    (await adminSdk.admin.order.retrieve(orderId, { fields: "id,display_id,status,payment_status,total,currency_code" })).order
  let order = await retrieve()
  if (detectionFirst) {
    log(`order #${order.display_id} placed on detection (payment ${order.payment_status}); the confirmations arrive (sandbox)…`)
    await control.confirm(invoice.txn_id)
    order = await waitFor(
      "the order's payment to be captured once the payment is confirmed",
      async () => {
        const current = await retrieve()
        return current.payment_status === "captured" ? current : null
      },
      60000
    ).catch(async (error) => {
      const current = await retrieve()
      throw new Error(`${error.message} (order #${current.display_id} payment ${current.payment_status})`)
    })
  }
  return {
    order_id: order.id,
    display_id: order.display_id,
    status: order.status,
    payment_status: order.payment_status,
    total: String(order.total),
    currency_code: order.currency_code,
    txn_id: invoice.txn_id,
    invoice_url: invoice.invoice_url,
  }
}

module.exports = { runCheckout, paymentStatus }
