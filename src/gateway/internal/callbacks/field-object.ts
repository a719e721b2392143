/**
 * Building the plain objects verifyCallback returns, fast.
 *
 * Callbacks repeat the same shape: the same member names in the same order. A JS object grown one
 * computed key at a time is slow to build (each new key is a hidden-class transition through V8's
 * runtime, and past a dozen keys the object falls into dictionary mode), so the first object of
 * each shape is kept, with null values, as a template; later objects of that shape are a copy of
 * it (`{...template}`, one fast clone) with the values assigned. The cache is bounded, as is the
 * size of a cached shape, so no sequence of bodies can grow it without limit.
 */

/** A value of a returned field (same shape as the public CallbackValue). */
export type FieldValue = string | boolean | null | FieldValue[] | { [key: string]: FieldValue }
export type FieldObject = { [key: string]: FieldValue }

interface Shape {
  readonly keys: string[]
  readonly template: FieldObject
}

const SHAPES = new Map<number, Shape[]>()
const SHAPE_LIMIT = 64
const MAX_SHAPE_KEYS = 128
let shapeCount = 0

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

/** The cached shape with exactly these names in this order, if any. Its names are distinct. */
export function findShape(keys: readonly string[]): Shape | undefined {
  const candidates = SHAPES.get(keys.length)
  if (candidates === undefined) return undefined
  outer: for (let c = 0; c < candidates.length; c++) {
    const candidate = candidates[c].keys
    for (let i = 0; i < keys.length; i++) {
      if (candidate[i] !== keys[i]) continue outer
    }
    return candidates[c]
  }
  return undefined
}

/** A new object of `shape` holding `values` in the shape's name order. */
export function objectOfShape(shape: Shape, values: readonly FieldValue[]): FieldObject {
  const object: FieldObject = { ...shape.template }
  const names = shape.keys
  for (let i = 0; i < names.length; i++) object[names[i]] = values[i]
  return object
}

function makeShape(keys: readonly string[]): Shape | undefined {
  if (shapeCount >= SHAPE_LIMIT || keys.length > MAX_SHAPE_KEYS) return undefined
  // JSON.parse is used here only to get V8's fast-properties object for a list of names; it sees
  // no value of any body. It defines "__proto__" as an own property, as a field name must be.
  let names = "{"
  for (let i = 0; i < keys.length; i++) names += (i > 0 ? "," : "") + JSON.stringify(keys[i]) + ":null"
  const template = JSON.parse(`${names}}`) as FieldObject
  // Object.keys gives V8's own copies of the names: no slice of a body stays referenced.
  const shape: Shape = { keys: Object.keys(template), template }
  const list = SHAPES.get(keys.length)
  if (list === undefined) SHAPES.set(keys.length, [shape])
  else list.push(shape)
  shapeCount++
  return shape
}

/**
 * The object of these fields. The caller guarantees the names are distinct. Returns `reordered`
 * true when some name is integer-like: JS lists those first, so the object's key order is not the
 * given one.
 */
export function buildFieldObject(keys: readonly string[], values: readonly FieldValue[]): { object: FieldObject; reordered: boolean } {
  const known = findShape(keys)
  if (known !== undefined) return { object: objectOfShape(known, values), reordered: false }
  let reordered = false
  for (const key of keys) {
    const first = key.charCodeAt(0)
    if (first >= 0x30 && first <= 0x39 && isIndexLikeKey(key)) reordered = true
  }
  if (!reordered) {
    const made = makeShape(keys)
    if (made !== undefined) return { object: objectOfShape(made, values), reordered }
  }
  const object: FieldObject = {}
  for (let i = 0; i < keys.length; i++) defineField(object, keys[i], values[i])
  return { object, reordered }
}
