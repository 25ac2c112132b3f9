/** What the prompt registry takes and how it refuses (prompt-registry.ts); answers: shared/admin/prompt-records.ts. */
export interface SaveInput {
  text: string;
  variables?: string[];
  author: string;
  note?: string;
  parent?: number;
  /** Labels moved to the new version in the same step (e.g. `candidate`). */
  labels?: string[];
}

export type RegistryCode = "not_found" | "validation_failed" | "conflict";

/**
 * A refusal the registry (or the desk) explains. Workers RPC carries an error's own properties
 * across the Durable Object boundary, so `name` and `code` arrive as data (the class does not).
 */
export class RegistryError extends Error {
  override name = "RegistryError";
  constructor(
    readonly code: RegistryCode,
    message: string,
  ) {
    super(message);
  }
}
