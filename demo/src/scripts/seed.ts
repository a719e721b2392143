import fs from "fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { seedStore } from "../lib/seed-store"

// `medusa exec ./src/scripts/seed.ts` (run by scripts/demo.js): seeds the demo store with the crypto
// provider enabled on its region and writes what the scripted checkout needs to DEMO_SEED_OUTPUT.
export default async function seedDemo({ container }: ExecArgs) {
  // DEMO_SEED_PAYMENT_PROVIDERS (comma-separated) adds providers to the region, e.g. Medusa's
  // pp_system_default for `npm run bench:store`, which compares the two on one store.
  const extra = (process.env.DEMO_SEED_PAYMENT_PROVIDERS ?? "").split(",").map((id) => id.trim()).filter(Boolean)
  const paymentProviders = [...new Set(["pp_crypto_crypto", ...extra])]
  const seeded = await seedStore(container, { paymentProviders })
  const output = process.env.DEMO_SEED_OUTPUT
  if (output) {
    fs.writeFileSync(output, JSON.stringify(seeded, null, 2))
  }
}
