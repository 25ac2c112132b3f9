import { z } from "zod/mini";

/**
 * A value collected into a stage's context, in a module of its own: the record_stage_data tool
 * (in the widget's tool chunk) validates with it, and importing it from session-events.ts would
 * load every session event schema (and chat.ts's) into that chunk.
 */
export const FieldValue = z.union([
  z.string().check(z.maxLength(4000)),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string().check(z.maxLength(500))).check(z.maxLength(50)),
]);
export type FieldValue = z.infer<typeof FieldValue>;
export const FieldValues = z.record(z.string(), FieldValue);
export type FieldValues = z.infer<typeof FieldValues>;
