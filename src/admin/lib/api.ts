import { FetchError } from "@medusajs/js-sdk"
import { sdk } from "./sdk"

/** The message a failed admin call shows: the API's own message (it names the field), never a stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof FetchError) return error.message || `Request failed (${error.status ?? "network"})`
  if (error instanceof Error) return error.message
  return "Something went wrong"
}

/** A fresh idempotency key for one withdrawal form submission (kept across retries of the same one). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`
}

type Query = Record<string, string | number | undefined>

const clean = (query: Query | undefined) =>
  query === undefined ? undefined : Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ""))

export const cryptoApi = {
  get: <T>(path: string, query?: Query) => sdk.client.fetch<T>(`/admin/crypto${path}`, { method: "GET", query: clean(query) }),
  post: <T>(path: string, body: Record<string, unknown>) => sdk.client.fetch<T>(`/admin/crypto${path}`, { method: "POST", body }),
  delete: <T>(path: string) => sdk.client.fetch<T>(`/admin/crypto${path}`, { method: "DELETE" }),
}
