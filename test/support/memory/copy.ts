/**
 * In-memory adapters of the store ports, one a file, with the DynamoDB adapters' conditional semantics: a
 * record written in place must still have the `updated_at` that was read, a client holds each pair (or its
 * placeholder) at most once, a change too large for one transaction is refused whole, a lease is taken only
 * when free or expired. Use cases run on them in milliseconds, without Java; test/support/store-contract.ts
 * runs the same contract against these and the DynamoDB adapters.
 */

/** A deep copy: what a store hands out is never the object it keeps. */
export const copy = <T>(value: T): T => structuredClone(value);
