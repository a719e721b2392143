import {
  Decimal,
  GatewayAuthenticationError,
  GatewayErrorCode,
  GatewayNotFoundError,
  GatewayParameterError,
  GatewayResponseError,
  GatewayServerError,
  type Operation,
} from ".."
import { failure, FakeGateway, rejectionOf, success, TEST_API_KEY } from "./helpers/fake-gateway"

/** A detail-view operation with every field of spec §2.2, numbers sent both ways. */
const DETAIL = `{
  "user_id": 42,
  "shop_id": "SHOP-1",
  "type": "invoice",
  "status": "completed",
  "tx_url": "https://explorer.example/tx/1",
  "id": "OP-1",
  "pending_sum": 0,
  "psys_cid": "USDT_TRX",
  "currency": "USDT",
  "source_currency": "USD",
  "source_rate": "0.99990001",
  "fee": null,
  "wallet_hash": "TXaddress",
  "sendmany": null,
  "expire_at_utc": null,
  "created_at_utc": 1700000000123,
  "amount": "123456789.123456789012",
  "sum": 123456789.123456789012,
  "commission": "0.00000001",
  "actual_sum": 0.00000001,
  "actual_commission": null,
  "actual_fee": 0.5,
  "actual_invoice_sum": "10.25",
  "tx_id": ["abc", "def"],
  "tx": [{"url": "https://explorer.example/tx/1", "wallet_hash": ["TXaddress"], "txid": "abc", "value": 0.00000001, "block": null, "processed": true}],
  "confirmations": 12,
  "status_code": 3,
  "parent_id": "OP-0",
  "child_ids": ["OP-2"],
  "params": {
    "order_number": "1001",
    "order_name": "Order 1001",
    "description": "mugs",
    "source_amount": "10.50",
    "source_currency": "USD",
    "source_rate": 1.0001,
    "currency": "USDT_TRX",
    "amount": "10.5",
    "fee": {"conf_target": 6, "plan": "normal", "value": "0.00001", "gasLimit": "21000", "gasPrice": "20.5", "nonce": "7", "unit": "gwei"}
  },
  "commissionPayment": 1,
  "commis_percent": "0.5",
  "commis_sum": "0.00000001",
  "memo": "m",
  "finished_at_utc": 1700000100
}`

const LIST_ITEM = (id: string): string => `{"user_id":42,"shop_id":null,"type":"cash_in","status":"pending","tx_url":null,"id":"${id}"}`

function listPage(ids: string[], meta: { currentPage: number; pageCount: number } | null, next?: string): string {
  const links = `{"self":{"href":"https://gateway.example/api/v1/operations?api_key=${TEST_API_KEY}&page=1&per-page=2"}${
    next ? `,"next":{"href":"${next}"}` : ""
  }}`
  const metaJson = meta
    ? `,"_meta":{"totalCount":5,"pageCount":${meta.pageCount},"currentPage":${meta.currentPage},"perPage":2}`
    : ""
  return `{"operations":[${ids.map(LIST_ITEM).join(",")}],"_links":${links}${metaJson}}`
}

describe("operations", () => {
  let gateway: FakeGateway
  beforeEach(async () => {
    gateway = await FakeGateway.start()
  })
  afterEach(async () => {
    await gateway.close()
  })

  describe("list", () => {
    it("sends GET /operations with every filter and the api_key", async () => {
      gateway.on("/operations", success(listPage([], { currentPage: 2, pageCount: 1 })))
      await gateway.client().operations.list({
        page: 2,
        limit: 50,
        shop_id: "SHOP-1",
        type: "pay_in",
        status: "cancelled duplicate",
        currency: "BTC",
        search: "buyer@example.com",
      })
      const [request] = gateway.requestsTo("/operations")
      expect(request?.method).toBe("GET")
      expect(Object.fromEntries(request?.query ?? [])).toEqual({
        page: "2",
        limit: "50",
        shop_id: "SHOP-1",
        type: "pay_in",
        status: "cancelled duplicate",
        currency: "BTC",
        search: "buyer@example.com",
        api_key: TEST_API_KEY,
      })
    })

    it("returns the page's operations, _meta, and _links with the api_key masked", async () => {
      gateway.on("/operations", success(listPage(["A", "B"], { currentPage: 1, pageCount: 3 })))
      const page = await gateway.client().operations.list()
      expect(page.operations.map((operation) => operation.id)).toEqual(["A", "B"])
      expect(page._meta).toEqual({ totalCount: 5, pageCount: 3, currentPage: 1, perPage: 2 })
      expect(page._links.self?.href).toBe("https://gateway.example/api/v1/operations?api_key=***&page=1&per-page=2")
      expect(JSON.stringify(page)).not.toContain(TEST_API_KEY)
    })

    it("normalizes a null tx_url to an empty array and keeps a null shop_id", async () => {
      gateway.on("/operations", success(listPage(["A"], null)))
      const page = await gateway.client().operations.list()
      expect(page.operations[0]?.tx_url).toEqual([])
      expect(page.operations[0]?.shop_id).toBeNull()
      expect(page._meta).toBeNull()
    })

    it("refuses a page whose operations are missing", async () => {
      gateway.on("/operations", success('{"_meta":{}}'))
      const error = await rejectionOf(gateway.client().operations.list())
      expect((error as GatewayResponseError).field).toBe("data.operations")
    })

    it("names the index of a malformed operation", async () => {
      gateway.on("/operations", success(`{"operations":[${LIST_ITEM("A")},{"id":"B","type":"invoice","status":"new","amount":true}]}`))
      const error = await rejectionOf(gateway.client().operations.list())
      expect((error as GatewayResponseError).field).toBe("data.operations[1].amount")
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/operations", failure(401, { name: "Unauthorized", message: "Wrong api key", code: 401 }))
      expect(await rejectionOf(gateway.client().operations.list())).toBeInstanceOf(GatewayAuthenticationError)
    })

    it("500 is a GatewayServerError", async () => {
      gateway.on("/operations", failure(500, { message: "Internal server error", code: 108 }))
      expect(await rejectionOf(gateway.client({ maxRetries: 0 }).operations.list())).toBeInstanceOf(GatewayServerError)
    })
  })

  describe("iterate", () => {
    async function collect(iterable: AsyncIterable<Operation>): Promise<string[]> {
      const ids: string[] = []
      for await (const operation of iterable) ids.push(operation.id)
      return ids
    }

    it("yields every operation of every page, following _meta.pageCount", async () => {
      gateway.on(
        "/operations",
        success(listPage(["A", "B"], { currentPage: 1, pageCount: 3 })),
        success(listPage(["C", "D"], { currentPage: 2, pageCount: 3 })),
        success(listPage(["E"], { currentPage: 3, pageCount: 3 }))
      )
      expect(await collect(gateway.client().operations.iterate({ limit: 2, status: "completed" }))).toEqual(["A", "B", "C", "D", "E"])
      const pages = gateway.requestsTo("/operations").map((request) => request.query.get("page"))
      expect(pages).toEqual(["1", "2", "3"])
      expect(gateway.requestsTo("/operations").every((request) => request.query.get("status") === "completed")).toBe(true)
    })

    it("follows the page number of _links.next when there is no _meta, without calling the link's host", async () => {
      gateway.on(
        "/operations",
        success(listPage(["A"], null, `https://elsewhere.example/api/v1/operations?page=2&per-page=1&api_key=${TEST_API_KEY}`)),
        success(listPage(["B"], null))
      )
      expect(await collect(gateway.client().operations.iterate())).toEqual(["A", "B"])
      expect(gateway.requestsTo("/operations").map((request) => request.query.get("page"))).toEqual(["1", "2"])
    })

    it("starts at the given page", async () => {
      gateway.on("/operations", success(listPage(["C"], { currentPage: 3, pageCount: 3 })))
      expect(await collect(gateway.client().operations.iterate({ page: 3 }))).toEqual(["C"])
    })

    it("stops on an empty page even if _meta claims more", async () => {
      gateway.on("/operations", success(listPage([], { currentPage: 1, pageCount: 9 })))
      expect(await collect(gateway.client().operations.iterate())).toEqual([])
      expect(gateway.requestsTo("/operations")).toHaveLength(1)
    })

    it("stops when _links.next does not move forward", async () => {
      gateway.on("/operations", success(listPage(["A"], null, "https://gateway.example/api/v1/operations?page=1")))
      expect(await collect(gateway.client().operations.iterate())).toEqual(["A"])
      expect(gateway.requestsTo("/operations")).toHaveLength(1)
    })
  })

  describe("retrieve", () => {
    it("sends GET /operations/{id} with the api_key", async () => {
      gateway.on("/operations/OP-1", success(DETAIL))
      await gateway.client().operations.retrieve("OP-1")
      const [request] = gateway.requestsTo("/operations/OP-1")
      expect(request?.rawQuery).toBe(`api_key=${TEST_API_KEY}`)
    })

    it("parses every decimal of the detail view exactly", async () => {
      gateway.on("/operations/OP-1", success(DETAIL))
      const operation = await gateway.client().operations.retrieve("OP-1")
      expect(operation.amount?.toFixed()).toBe("123456789.123456789012")
      expect(operation.sum?.toFixed()).toBe("123456789.123456789012")
      expect(operation.actual_sum?.toFixed()).toBe("0.00000001")
      expect(operation.commission?.toFixed()).toBe("0.00000001")
      expect(operation.pending_sum?.toFixed()).toBe("0")
      expect(operation.source_rate?.toFixed()).toBe("0.99990001")
      expect(operation.actual_fee?.toFixed()).toBe("0.5")
      expect(operation.actual_invoice_sum?.toFixed()).toBe("10.25")
      expect(operation.commis_sum?.toFixed()).toBe("0.00000001")
      expect(operation.tx?.[0]?.value?.toFixed()).toBe("0.00000001")
      // decimal.js keeps the value exactly; trailing zeros are not part of a Decimal.
      expect(operation.params?.source_amount?.toFixed()).toBe("10.5")
      expect(operation.params?.source_rate?.toFixed()).toBe("1.0001")
      expect(operation.params?.amount?.toFixed()).toBe("10.5")
      expect(operation.params?.fee?.value?.toFixed()).toBe("0.00001")
      expect(operation.params?.fee?.gasPrice?.toFixed()).toBe("20.5")
      expect(operation.amount).toBeInstanceOf(Decimal)
    })

    it("keeps nulls as nulls", async () => {
      gateway.on("/operations/OP-1", success(DETAIL))
      const operation = await gateway.client().operations.retrieve("OP-1")
      expect(operation.fee).toBeNull()
      expect(operation.sendmany).toBeNull()
      expect(operation.expire_at_utc).toBeNull()
      expect(operation.actual_commission).toBeNull()
      expect(operation.tx?.[0]?.block).toBeNull()
    })

    it("normalizes timestamps to seconds and tx_url to an array", async () => {
      gateway.on("/operations/OP-1", success(DETAIL))
      const operation = await gateway.client().operations.retrieve("OP-1")
      expect(operation.created_at_utc).toBe(1700000000)
      expect(operation.finished_at_utc).toBe(1700000100)
      expect(operation.tx_url).toEqual(["https://explorer.example/tx/1"])
    })

    it("keeps the integers, strings and lists of the detail view", async () => {
      gateway.on("/operations/OP-1", success(DETAIL))
      const operation = await gateway.client().operations.retrieve("OP-1")
      expect(operation).toMatchObject({
        user_id: 42,
        shop_id: "SHOP-1",
        type: "invoice",
        status: "completed",
        id: "OP-1",
        psys_cid: "USDT_TRX",
        currency: "USDT",
        confirmations: 12,
        status_code: 3,
        parent_id: "OP-0",
        child_ids: ["OP-2"],
        tx_id: ["abc", "def"],
        commissionPayment: 1,
        commis_percent: "0.5",
        memo: "m",
      })
      expect(operation.tx?.[0]).toMatchObject({ txid: "abc", wallet_hash: ["TXaddress"], processed: true })
      expect(operation.params?.fee).toMatchObject({ conf_target: 6, plan: "normal", gasLimit: "21000", nonce: "7", unit: "gwei" })
      expect(operation.params).toMatchObject({ order_number: "1001", order_name: "Order 1001" })
    })

    it("keeps tx_url given as an array", async () => {
      gateway.on("/operations/OP-1", success('{"id":"OP-1","type":"cash_out","status":"completed","tx_url":["u1","u2"]}'))
      expect((await gateway.client().operations.retrieve("OP-1")).tx_url).toEqual(["u1", "u2"])
    })

    it("parses a mass_cash_out sendmany map into Decimals", async () => {
      gateway.on(
        "/operations/OP-1",
        success('{"id":"OP-1","type":"mass_cash_out","status":"completed","sendmany":{"addr1":0.00000001,"addr2":"123456789.123456789012"}}')
      )
      const operation = await gateway.client().operations.retrieve("OP-1")
      expect(operation.sendmany?.addr1?.toFixed()).toBe("0.00000001")
      expect(operation.sendmany?.addr2?.toFixed()).toBe("123456789.123456789012")
    })

    it("passes unknown types and statuses through as strings", async () => {
      gateway.on("/operations/OP-1", success('{"id":"OP-1","type":"refund","status":"on hold"}'))
      const operation = await gateway.client().operations.retrieve("OP-1")
      expect([operation.type, operation.status]).toEqual(["refund", "on hold"])
    })

    it("404 code 111 is a GatewayNotFoundError", async () => {
      gateway.on("/operations/NOPE", failure(404, { name: "Not Found", message: "The specified resource does not exist", code: 111 }))
      const error = await rejectionOf(gateway.client().operations.retrieve("NOPE"))
      expect(error).toBeInstanceOf(GatewayNotFoundError)
      expect(error).toMatchObject({ status: 404, code: GatewayErrorCode.NOT_FOUND, name: "Not Found" })
    })

    it("401 is a GatewayAuthenticationError", async () => {
      gateway.on("/operations/OP-1", failure(401, { message: "Wrong api key", code: 401 }))
      expect(await rejectionOf(gateway.client().operations.retrieve("OP-1"))).toBeInstanceOf(GatewayAuthenticationError)
    })

    it("500 is a GatewayServerError", async () => {
      gateway.on("/operations/OP-1", failure(500, { message: "Internal server error", code: 108 }))
      expect(await rejectionOf(gateway.client({ maxRetries: 0 }).operations.retrieve("OP-1"))).toBeInstanceOf(GatewayServerError)
    })
  })

  describe("path parameters", () => {
    it("encodes a / inside the id so it stays one segment", async () => {
      gateway.on("/operations/a%2Fb", success('{"id":"a/b","type":"invoice","status":"new"}'))
      const operation = await gateway.client().operations.retrieve("a/b")
      expect(operation.id).toBe("a/b")
      expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/operations/a%2Fb"])
    })

    it("encodes ../ so it cannot reach a parent path", async () => {
      gateway.on("/operations/..%2Fbalances%2FBTC", success('{"id":"x","type":"invoice","status":"new"}'))
      await gateway.client().operations.retrieve("../balances/BTC")
      expect(gateway.requests.map((request) => request.path)).toEqual(["/api/v1/operations/..%2Fbalances%2FBTC"])
    })

    it("encodes ? and # so they cannot start a query or fragment", async () => {
      gateway.on("/balances/BTC%3Fapi_key%3Dx%23y", success('{"balance":"1"}'))
      await gateway.client().balances.retrieve("BTC?api_key=x#y")
      expect(gateway.requests[0]?.path).toBe("/api/v1/balances/BTC%3Fapi_key%3Dx%23y")
      expect(gateway.requests[0]?.rawQuery).toBe(`api_key=${TEST_API_KEY}`)
    })

    it.each([".", "..", ""])("refuses the segment %j without sending anything", async (id) => {
      const error = await rejectionOf(gateway.client().operations.retrieve(id))
      expect(error).toBeInstanceOf(GatewayParameterError)
      expect((error as GatewayParameterError).param).toBe("id")
      expect(gateway.requests).toHaveLength(0)
    })
  })
})
