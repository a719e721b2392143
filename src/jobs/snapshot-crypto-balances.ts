import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { snapshotCryptoBalancesWorkflow } from "../workflows/snapshot-crypto-balances"

/**
 * Every day at 00:05 UTC: stores each coin's gateway balance of the day (docs/books.md#balance-snapshots)
 * for the balances chart. Idempotent per day: a rerun, or the same job on another instance, adds nothing.
 */
export default async function snapshotCryptoBalancesJob(container: MedusaContainer): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { result } = await snapshotCryptoBalancesWorkflow(container).run({ input: {} })
  for (const provider of result) {
    if (provider.created.length + provider.unread.length > 0) {
      logger.info(
        `crypto balance snapshot ${provider.day} (${provider.provider_id}): ${provider.created.length} coin(s) stored, ${provider.existing.length} already there, ${provider.unread.length} unread`
      )
    }
  }
}

export const config = {
  name: "snapshot-crypto-balances",
  // Read in the server's local time: 00:05 UTC on a server that runs on UTC. The day a row belongs to is always the UTC day.
  schedule: "5 0 * * *",
}
