// The settings save as Medusa runs it, inside a throwaway workflow over a container of fakes: the row
// is written and the copy the payment paths keep in Medusa's cache module is dropped, also when a
// later step fails and the save is compensated (src/core/config/settings.ts).
import { asValue } from "@medusajs/framework/awilix"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createMedusaContainer, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_MODULE } from "../../../modules/crypto"
import { SETTINGS_CACHE_KEY, type SettingsCache } from "../../../core/config/settings"
import { upsertCryptoSettingsStep, type CryptoSettingsPatch } from "../steps/upsert-crypto-settings"

type Row = Record<string, unknown> & { id: string }

function setup() {
  const rows: Row[] = [{ id: "cset_1", provider_id: "pp_crypto_crypto", invoice_lifetime_minutes: 15, accepted_coins: null }]
  const cryptoModule = {
    // Copies, as the database gives them: a row read before a write does not change with it.
    listCryptoSettings: async (filters: { provider_id?: string }) => rows.filter((row) => row.provider_id === filters.provider_id).map((row) => ({ ...row })),
    updateCryptoSettings: async (data: Row) => Object.assign(rows.find((row) => row.id === data.id) ?? {}, data),
    createCryptoSettings: async (data: Record<string, unknown>) => {
      const row = { id: `cset_${rows.length + 1}`, ...data }
      rows.push(row)
      return row
    },
    deleteCryptoSettings: async (id: string) => {
      rows.splice(rows.findIndex((row) => row.id === id), 1)
    },
  }
  const invalidated: string[] = []
  const cache: SettingsCache = {
    get: async () => null,
    set: async () => undefined,
    invalidate: async (key: string) => {
      invalidated.push(key)
    },
  }
  const container = createMedusaContainer()
  container.register(CRYPTO_MODULE, asValue(cryptoModule))
  container.register(Modules.CACHE, asValue(cache))
  return { rows, invalidated, container: container as MedusaContainer }
}

const save = createWorkflow("test-upsert-crypto-settings", (input: CryptoSettingsPatch) => new WorkflowResponse(upsertCryptoSettingsStep(input)))

const failAfterSave = createStep("test-fail-after-settings-save", async () => {
  throw new Error("a later step failed")
})
const saveThenFail = createWorkflow("test-upsert-crypto-settings-then-fail", (input: CryptoSettingsPatch) => {
  const saved = upsertCryptoSettingsStep(input)
  failAfterSave()
  return new WorkflowResponse(saved)
})

describe("upsert-crypto-settings: the save drops the cached settings", () => {
  it("writes the row, then invalidates the cache the payment paths read", async () => {
    const { rows, invalidated, container } = setup()
    await save(container).run({ input: { provider_id: "pp_crypto_crypto", invoice_lifetime_minutes: 30 } })
    expect(rows[0].invoice_lifetime_minutes).toBe(30)
    expect(invalidated).toEqual([SETTINGS_CACHE_KEY])
  })

  it("compensated, puts the row back and invalidates again", async () => {
    const { rows, invalidated, container } = setup()
    const { errors } = await saveThenFail(container).run({ input: { provider_id: "pp_crypto_crypto", invoice_lifetime_minutes: 30 }, throwOnError: false })
    expect(errors.map((error) => error.error?.message)).toEqual(["a later step failed"])
    expect(rows[0].invoice_lifetime_minutes).toBe(15)
    expect(invalidated).toEqual([SETTINGS_CACHE_KEY, SETTINGS_CACHE_KEY])
  })
})
