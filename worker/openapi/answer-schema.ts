import { z } from "zod/mini";

/**
 * Answer schemas for the API contract. The worker writes its answers from TypeScript types, not
 * through a schema, so each answer schema is checked against its type at compile time (`keysOf`:
 * the same top-level keys) and against real answers in the worker tests (test/worker/openapi.test.ts).
 */

/** An object the contract does not spell out field by field: its type is named in the description. */
export const object = (description: string) => z.record(z.string(), z.unknown()).check(z.describe(description));
export const objects = (description: string) => z.array(object(description));

type KeysOf<S> = S extends z.ZodMiniObject<infer Shape> ? keyof Shape : never;

/**
 * The schema, when its keys are exactly those of T (a key added to the type and not to the schema,
 * or the other way round, fails to compile): `keysOf<SessionResponse>()(z.object({...}))`.
 */
export function keysOf<T>() {
  return <S extends z.ZodMiniObject>(
    schema: S & ([KeysOf<S>] extends [keyof T] ? ([keyof T] extends [KeysOf<S>] ? unknown : never) : never),
  ): S => schema;
}
