import type { INotificationModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { adminNotification, type AdminNotice } from "../../../core/notify/admin-notices"
import { failureReason } from "../../../core/errors"
import { sendOnce } from "../../steps/notify-crypto-shopper"

export const notifyCryptoAdminsStepId = "notify-crypto-admins"

/**
 * Tells every admin (the Notification Module's admin feed) about each notice: a new address, a
 * loosening of the money-out policy (docs/money-out.md#money-out-policy). No compensation (a notice
 * cannot be taken back); forward-only and idempotent: each notice's idempotency key creates it once.
 * A store whose Notification Module cannot take the feed logs why and goes on: the change it tells
 * of is saved and audited either way.
 */
export const notifyCryptoAdminsStep = createStep(notifyCryptoAdminsStepId, async (notices: AdminNotice[], { container }) => {
  const notifications = container.resolve<INotificationModuleService | undefined>(Modules.NOTIFICATION, { allowUnregistered: true })
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const outcomes: Array<"sent" | "already_sent" | "unavailable"> = []
  for (const notice of notices) {
    if (notifications === undefined) {
      logger.warn(`crypto payments: no Notification Module, so the admins were not told: ${adminNotification(notice).data?.description ?? notice.kind}`)
      outcomes.push("unavailable")
      continue
    }
    const notification = adminNotification(notice)
    try {
      outcomes.push(await sendOnce(notifications, notification, notification.idempotency_key ?? notice.id))
    } catch (error) {
      logger.warn(`crypto payments: telling the admins failed (${failureReason(error)}): ${notification.data?.description ?? notice.kind}`)
      outcomes.push("unavailable")
    }
  }
  return new StepResponse(outcomes)
})
