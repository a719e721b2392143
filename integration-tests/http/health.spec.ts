import path from "path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"

jest.setTimeout(120 * 1000)

medusaIntegrationTestRunner({
  cwd: process.env.MPC_TEST_APP_DIR || path.join(__dirname, "../app"),
  inApp: true,
  env: {},
  testSuite: ({ api }) => {
    describe("a Medusa app with the plugin loaded", () => {
      it("answers GET /health with 200", async () => {
        const response = await api.get("/health")
        expect(response.status).toEqual(200)
      })
    })
  },
})
