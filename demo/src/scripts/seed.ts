import fs from "fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { seedStore } from "../lib/seed-store"

// `medusa exec ./src/scripts/seed.ts` (run by scripts/demo.js): seeds the demo store with both crypto
// providers enabled on its region (white-label `crypto` and hosted `crypto-hosted`, demo/medusa-config.ts)
// and writes what the scripted checkout needs to DEMO_SEED_OUTPUT.
export default async function seedDemo({ container }: ExecArgs) {
  const seeded = await seedStore(container, { paymentProviders: ["pp_crypto_crypto", "pp_crypto_crypto-hosted"] })
  const output = process.env.DEMO_SEED_OUTPUT
  if (output) {
    fs.writeFileSync(output, JSON.stringify(seeded, null, 2))
  }
}
