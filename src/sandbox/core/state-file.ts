import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"

import type { Delivery } from "./dispatcher"
import type { SandboxState } from "./types"

export interface SavedSandbox {
  state: SandboxState
  deliveries: Delivery[]
}

/** Reads a state file written by `saveState`; null when the file does not exist yet. */
export function loadState(file: string): SavedSandbox | null {
  if (!existsSync(file)) {
    return null
  }
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"))
  if (typeof parsed !== "object" || parsed === null || !("state" in parsed)) {
    throw new Error(`${file} is not a sandbox state file`)
  }
  // Files written before cash_ins and withdrawal failures existed lack those two members.
  const saved = parsed as { state: Omit<SandboxState, "cash_ins" | "withdrawal_failures"> & Partial<SandboxState>; deliveries?: Delivery[] }
  if (saved.state.version !== 1) {
    throw new Error(`${file}: unsupported state version`)
  }
  const state: SandboxState = { ...saved.state, cash_ins: saved.state.cash_ins ?? {}, withdrawal_failures: saved.state.withdrawal_failures ?? {} }
  return { state, deliveries: saved.deliveries ?? [] }
}

/** Writes atomically (temp file + rename), so a crash never leaves half a file. */
export function saveState(file: string, saved: SavedSandbox): void {
  const temp = `${file}.tmp`
  writeFileSync(temp, JSON.stringify(saved, null, 2))
  renameSync(temp, file)
}
