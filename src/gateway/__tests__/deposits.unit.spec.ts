import {
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayErrorCode,
  GatewayNotFoundError,
  GatewayParameterError,
  GatewayServerError,
} from ".."
import { failure, FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

const ONE = '{"uid":"user-1","hash":"bc1qdeposit","psys_cid":"BTC"}'
const TWO = '[{"uid":"user-1","hash":"bc1qdeposit","psys_cid":"BTC"},{"uid":"user-1","hash":"0xdeposit","psys_cid":"ETH"}]'

describe("deposits", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe("create", () => {
    it("sends GET /shops/deposit/new with psys_cid, uid and the api_key", async () => {
      gateway.on("/shops/deposit/new", success(ONE))
      await gateway.client().deposits.create({ psys_cid: "BTC", uid: "user-1" })
      expect(gateway.requests.map((request) => [request.method, request.path])).toEqual([["GET", "/api/v1/shops/deposit/new"]])
      expect(Object.fromEntries(gateway.requests[0]?.query ?? [])).toEqual({ psys_cid: "BTC", uid: "user-1", api_key: TEST_API_KEY })
    })

    it("returns one deposit for one psys_cid", async () => {
      gateway.on("/shops/deposit/new", success(ONE))
      const deposit = await gateway.client().deposits.create({ psys_cid: "BTC", uid: "user-1" })
      expect(deposit).toEqual({ uid: "user-1", hash: "bc1qdeposit", psys_cid: "BTC" })
    })

    it("joins several psys_cids with commas and returns an array", async () => {
      gateway.on("/shops/deposit/new", success(TWO))
      const deposits = await gateway.client().deposits.create({ psys_cid: ["BTC", "ETH"], uid: "user-1" })
      expect(gateway.requests[0]?.query.get("psys_cid")).toBe("BTC,ETH")
      expect(deposits.map((deposit) => deposit.hash)).toEqual(["bc1qdeposit", "0xdeposit"])
    })

    it("returns an array for a one-item list even when the gateway answers one object", async () => {
      gateway.on("/shops/deposit/new", success(ONE))
      const deposits = await gateway.client().deposits.create({ psys_cid: ["BTC"], uid: "user-1" })
      expect(deposits).toEqual([{ uid: "user-1", hash: "bc1qdeposit", psys_cid: "BTC" }])
    })

    it("refuses a uid over 255 characters without sending anything", async () => {
      const error = await rejectionOf(gateway.client().deposits.create({ psys_cid: "BTC", uid: "u".repeat(256) }))
      expect((error as GatewayParameterError).param).toBe("uid")
      expect(gateway.requests).toHaveLength(0)
    })

    it("accepts a uid of exactly 255 characters", async () => {
      gateway.on("/shops/deposit/new", success(ONE))
      await gateway.client().deposits.create({ psys_cid: "BTC", uid: "é".repeat(255) })
      expect(gateway.requests[0]?.query.get("uid")).toBe("é".repeat(255))
    })

    it("refuses an empty psys_cid list", async () => {
      const error = await rejectionOf(gateway.client().deposits.create({ psys_cid: [], uid: "user-1" }))
      expect(error).toBeInstanceOf(GatewayParameterError)
    })

    it("400 code 400 (white-label disabled) is a GatewayBadRequestError", async () => {
      gateway.on("/shops/deposit/new", failure(400, { message: "Enable white-label in the shop settings", code: 400 }))
      const error = await rejectionOf(gateway.client().deposits.create({ psys_cid: "BTC", uid: "user-1" }))
      expect(error).toBeInstanceOf(GatewayBadRequestError)
      expect((error as GatewayBadRequestError).code).toBe(GatewayErrorCode.WHITE_LABEL_DISABLED)
    })

    it("400 code 103 (missing uid) is a GatewayBadRequestError", async () => {
      gateway.on("/shops/deposit/new", failure(400, { name: "Bad Request", message: "Missing required attribute: uid", code: 103 }))
      const error = await rejectionOf(gateway.client().deposits.create({ psys_cid: "BTC", uid: "user-1" }))
      expect((error as GatewayBadRequestError).code).toBe(GatewayErrorCode.MISSING_REQUIRED_ATTRIBUTE)
    })

    it("401 code 401 (shop of the key not found) is a GatewayAuthenticationError", async () => {
      gateway.on("/shops/deposit/new", failure(401, { message: "The specified resource does not exist", code: 401 }))
      const error = await rejectionOf(gateway.client().deposits.create({ psys_cid: "BTC", uid: "user-1" }))
      expect(error).toBeInstanceOf(GatewayAuthenticationError)
      expect((error as GatewayAuthenticationError).code).toBe(GatewayErrorCode.SHOP_NOT_FOUND)
    })

    it("is retried on a 5xx (the address is tied to the uid)", async () => {
      gateway.on("/shops/deposit/new", failure(503, { message: "busy", code: 108 }), success(ONE))
      const deposit = await gateway.client().deposits.create({ psys_cid: "BTC", uid: "user-1" })
      expect(deposit.hash).toBe("bc1qdeposit")
      expect(gateway.requestsTo("/shops/deposit/new")).toHaveLength(2)
    })
  })

  describe("list", () => {
    it("sends GET /shops/deposit with uid, joined psys_cid, page, limit and the api_key", async () => {
      gateway.on("/shops/deposit", success(TWO))
      await gateway.client().deposits.list({ uid: "user-1", psys_cid: ["BTC", "ETH"], page: 2, limit: 20 })
      expect(Object.fromEntries(gateway.requestsTo("/shops/deposit")[0]?.query ?? [])).toEqual({
        uid: "user-1",
        psys_cid: "BTC,ETH",
        page: "2",
        limit: "20",
        api_key: TEST_API_KEY,
      })
    })

    it("sends only the api_key without filters", async () => {
      gateway.on("/shops/deposit", success("[]"))
      expect(await gateway.client().deposits.list()).toEqual([])
      expect(gateway.requestsTo("/shops/deposit")[0]?.rawQuery).toBe(`api_key=${TEST_API_KEY}`)
    })

    it("returns the page's deposits", async () => {
      gateway.on("/shops/deposit", success(TWO))
      const deposits = await gateway.client().deposits.list()
      expect(deposits.map((deposit) => deposit.psys_cid)).toEqual(["BTC", "ETH"])
    })

    it("400 (white-label disabled) is a GatewayBadRequestError", async () => {
      gateway.on("/shops/deposit", failure(400, { message: "Enable white-label in the shop settings", code: 400 }))
      expect(await rejectionOf(gateway.client().deposits.list())).toBeInstanceOf(GatewayBadRequestError)
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/shops/deposit", failure(401, { message: "The specified resource does not exist", code: 401 }))
      expect(await rejectionOf(gateway.client().deposits.list())).toBeInstanceOf(GatewayAuthenticationError)
    })
  })

  describe("path fallback (/shops/deposit → /shop/deposit)", () => {
    it("falls back to /shop/deposit/new when /shops/deposit/new answers 404, and remembers it", async () => {
      gateway.on("/shops/deposit/new", { status: 404, body: "" })
      gateway.on("/shop/deposit/new", success(ONE))
      gateway.on("/shop/deposit", success("[]"))
      const client = gateway.client()
      await client.deposits.create({ psys_cid: "BTC", uid: "user-1" })
      await client.deposits.create({ psys_cid: "BTC", uid: "user-2" })
      await client.deposits.list()
      expect(gateway.requests.map((request) => request.path)).toEqual([
        "/api/v1/shops/deposit/new",
        "/api/v1/shop/deposit/new",
        "/api/v1/shop/deposit/new",
        "/api/v1/shop/deposit",
      ])
      expect(client.deposits.resolvedPrefix).toBe("/shop/deposit")
    })

    it("keeps /shops/deposit when it answers, never trying /shop", async () => {
      gateway.on("/shops/deposit", success("[]"))
      gateway.on("/shops/deposit/new", success(ONE))
      const client = gateway.client()
      await client.deposits.list()
      await client.deposits.create({ psys_cid: "BTC", uid: "user-1" })
      expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/shops/deposit", "/api/v1/shops/deposit/new"])
      expect(client.deposits.resolvedPrefix).toBe("/shops/deposit")
    })

    it("falls back for the list too, starting from /shops", async () => {
      gateway.on("/shop/deposit", success(TWO))
      const client = gateway.client()
      expect(await client.deposits.list()).toHaveLength(2)
      expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/shops/deposit", "/api/v1/shop/deposit"])
    })

    it("remembers the route per client instance", async () => {
      gateway.on("/shop/deposit", success("[]"))
      await gateway.client().deposits.list()
      await gateway.client().deposits.list()
      expect(gateway.requests.map((request) => request.path)).toEqual([
        "/api/v1/shops/deposit",
        "/api/v1/shop/deposit",
        "/api/v1/shops/deposit",
        "/api/v1/shop/deposit",
      ])
    })

    it("reports the 404 of /shop when both spellings answer 404", async () => {
      const error = await rejectionOf(gateway.client().deposits.list())
      expect(error).toBeInstanceOf(GatewayNotFoundError)
      expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/shops/deposit", "/api/v1/shop/deposit"])
    })

    it("does not fall back on an error other than 404", async () => {
      gateway.on("/shops/deposit", failure(500, { message: "Internal server error", code: 108 }))
      const error = await rejectionOf(gateway.client({ maxRetries: 0 }).deposits.list())
      expect(error).toBeInstanceOf(GatewayServerError)
      expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/shops/deposit"])
    })
  })
})
