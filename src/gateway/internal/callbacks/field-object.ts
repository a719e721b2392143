/**
 * Building the plain objects verifyCallback returns: own enumerable properties only (a field named
 * `__proto__` stays a field), and a note of whether JS reorders the keys (integer-like names are
 * listed first), which the JSON writer needs to write an object back in its received order.
 * Nothing is kept between calls.
 */

/** A value of a returned field (same shape as the public CallbackValue). */
export type FieldValue = string | boolean | null | FieldValue[] | { [key: string]: FieldValue }
export type FieldObject = { [key: string]: FieldValue }

/** Keys a JS object orders before the others (array indexes): 0 .. 2^32-2 without leading zeros. */
const INDEX_KEY_RE = /^(?:0|[1-9][0-9]{0,9})$/

export function isIndexLikeKey(key: string): boolean {
  return INDEX_KEY_RE.test(key) && Number(key) < 4294967295
}

/** Sets an own enumerable property; `__proto__` must not reach the prototype setter. */
export function defineField(target: FieldObject, key: string, value: FieldValue): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  } else {
    target[key] = value
  }
}

/**
 * The object of these fields. The caller guarantees the names are distinct. Returns `reordered`
 * true when some name is integer-like: JS lists those first, so the object's key order is not the
 * given one.
 */
export function buildFieldObject(keys: readonly string[], values: readonly FieldValue[]): { object: FieldObject; reordered: boolean } {
  const reordered = keys.some(isIndexLikeKey)
  const object: FieldObject = {}
  for (let i = 0; i < keys.length; i++) defineField(object, keys[i], values[i])
  return { object, reordered }
}
