/**
 * GET /admin/crypto/attention's answer as types only, for the admin UI (through
 * src/api/admin/crypto/types.ts, the one module src/admin may import types from).
 */
import type { AttentionFacts, MoneyFact } from "../../../../core/books/attention-facts"
import type { AttentionQueueItemWithFacts } from "../../../../core/books/attention-queue"
import type { Serialized } from "../types"

/** What needs the merchant's decision: a stored kind (crypto_attention) or one derived from a money-out record. */
export type AdminCryptoAttentionKind = AttentionQueueItemWithFacts["kind"]
/** One item of GET /admin/crypto/attention, with its `facts`. */
export type AdminCryptoAttentionItem = Serialized<AttentionQueueItemWithFacts>
export type AdminCryptoAttentionFacts = AttentionFacts
export type AdminCryptoMoneyFact = MoneyFact
