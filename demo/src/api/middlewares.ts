import { defineMiddlewares, validateAndTransformBody } from "@medusajs/framework/http"
import { demoTestRoutesOnly } from "./demo-test/guard"
import { DemoTestCartsBody, DemoTestProcessPaymentBody } from "./demo-test/validators"

export default defineMiddlewares({
  routes: [
    { matcher: "/demo-test*", middlewares: [demoTestRoutesOnly] },
    { matcher: "/demo-test/carts", method: ["POST"], middlewares: [validateAndTransformBody(DemoTestCartsBody)] },
    {
      matcher: "/demo-test/process-payment",
      method: ["POST"],
      middlewares: [validateAndTransformBody(DemoTestProcessPaymentBody)],
    },
  ],
})
