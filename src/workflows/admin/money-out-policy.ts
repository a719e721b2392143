import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { notifyCryptoAdminsStep } from "./steps/notify-crypto-admins"
import { removeCryptoAddressStep, saveCryptoAddressStep, type RemoveCryptoAddressInput, type SaveCryptoAddressInput } from "./steps/save-crypto-address"
import { saveCryptoMoneyOutPolicyStep, type SaveCryptoMoneyOutPolicyInput } from "./steps/save-crypto-money-out-policy"

export const saveCryptoAddressWorkflowId = "save-crypto-address"

/** Saves an address in the address book, usable after the cooling-off; every admin is told (docs/money-out.md#money-out-policy). */
export const saveCryptoAddressWorkflow = createWorkflow(saveCryptoAddressWorkflowId, (input: SaveCryptoAddressInput) => {
  const saved = saveCryptoAddressStep(input)
  notifyCryptoAdminsStep(transform({ saved }, ({ saved }) => saved.notices))
  return new WorkflowResponse(saved)
})

export const removeCryptoAddressWorkflowId = "remove-crypto-address"

/** Removes an address from the address book, at once. */
export const removeCryptoAddressWorkflow = createWorkflow(removeCryptoAddressWorkflowId, (input: RemoveCryptoAddressInput) => {
  return new WorkflowResponse(removeCryptoAddressStep(input))
})

export const saveCryptoMoneyOutPolicyWorkflowId = "save-crypto-money-out-policy"

/** Changes the money-out policy: tightening at once, loosening after the cooling-off, every admin told of a loosening. */
export const saveCryptoMoneyOutPolicyWorkflow = createWorkflow(saveCryptoMoneyOutPolicyWorkflowId, (input: SaveCryptoMoneyOutPolicyInput) => {
  const saved = saveCryptoMoneyOutPolicyStep(input)
  notifyCryptoAdminsStep(transform({ saved }, ({ saved }) => saved.notices))
  return new WorkflowResponse(saved)
})
