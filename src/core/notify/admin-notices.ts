import type { CreateNotificationDTO } from "@medusajs/framework/types"
import type { MoneyOutPolicyField } from "../config/money-out-policy"

/**
 * What every admin is told about the money-out policy (docs/money-out.md#money-out-policy): a new
 * address in the address book, and a change that loosens the policy (with when it takes effect).
 * Sent through Medusa's Notification Module to the admin's notification feed (channel `feed`,
 * template `admin-ui`, `to` empty: the feed is every admin's), once per fact (its idempotency key).
 * Times are ISO strings: a notice travels between workflow steps as JSON.
 */
export type AdminNotice =
  | { kind: "address_added"; id: string; psys_cid: string; address: string; label: string | null; added_by: string | null; usable_from: string }
  | { kind: "policy_loosened"; id: string; field: MoneyOutPolicyField; from: unknown; to: unknown; requested_by: string | null; effective_at: string }

/** The admin's notification feed: Medusa's default configuration has a local provider for it. */
export const ADMIN_NOTICE_CHANNEL = "feed"

/** The notification for one notice, keyed so the Notification Module creates it once. */
export function adminNotification(notice: AdminNotice): CreateNotificationDTO {
  const by = (actor: string | null) => (actor === null ? "" : ` by ${actor}`)
  const data =
    notice.kind === "address_added"
      ? {
          title: "Crypto: address added to the address book",
          description: `${notice.address} (${notice.psys_cid}${notice.label === null ? "" : `, "${notice.label}"`}) was saved${by(notice.added_by)}; withdrawals may go to it from ${notice.usable_from}. If no admin of yours saved it, remove it under Settings → Crypto → Money out.`,
        }
      : {
          title: "Crypto: the money-out policy is being loosened",
          description: `${notice.field} changes from ${JSON.stringify(notice.from)} to ${JSON.stringify(notice.to)}${by(notice.requested_by)}, in effect from ${notice.effective_at}. If no admin of yours asked for it, set it back under Settings → Crypto → Money out before then.`,
        }
  return {
    to: "",
    channel: ADMIN_NOTICE_CHANNEL,
    template: "admin-ui",
    data,
    trigger_type: `medusa-payment-crypto.${notice.kind}`,
    resource_id: notice.id,
    resource_type: notice.kind === "address_added" ? "crypto_address" : "crypto_policy_change",
    idempotency_key: `medusa-payment-crypto:${notice.kind}:${notice.id}`,
  }
}
