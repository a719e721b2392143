import Medusa from "@medusajs/js-sdk"

// The admin extensions reach the plugin's /admin/crypto routes through the JS SDK, with the admin's
// own session, as Medusa's dashboard does.
export const sdk = new Medusa({
  baseUrl: typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__ ? __BACKEND_URL__ : "/",
  auth: { type: typeof __AUTH_TYPE__ !== "undefined" && __AUTH_TYPE__ ? __AUTH_TYPE__ : "session" },
})
