/**
 * The fast paths of callback verification and the general readers they stand in for, side by side.
 * This module exists for one purpose: __tests__/callbacks-differential.unit.spec.ts imports it to
 * check that for any body both give the same verdict and the same fields. Production code calls
 * verifyCallback (core/callbacks.ts), which runs a fast path and falls back to the general one.
 */
export { VERIFY_HASH_FIELD, CallbackVerificationError } from "./verification"
export { serializeFormFields } from "./php-serialize"
export { buildFieldObject } from "./field-object"
export { findTrailingSignature, readSignedJsonText } from "./json/signed-text"
export { readSignedTextStrictly, verifyJsonFast, verifyJsonGeneral } from "./json/verify"
export {
  formFieldObject,
  readFormGenerally,
  readUrlencodedFastly,
  verifyFormGeneral,
  verifyUrlencodedFast,
} from "./form/verify"
