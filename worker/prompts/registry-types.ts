/** What the prompt registry stores and answers (see prompt-registry.ts). */
export interface PromptVersion {
  path: string;
  version: number;
  text: string;
  variables: string[];
  /** `owner`, `desk`, `seed`, or who else saved it. */
  author: string;
  parent: number | null;
  note: string;
  at: number;
}

export interface LabelMove {
  seq: number;
  path: string;
  label: string;
  /** null: the label did not exist before (from) or was removed (to). */
  from: number | null;
  to: number | null;
  by: string;
  why: string;
  at: number;
}

export interface PromptSummary {
  path: string;
  latest: number;
  updatedAt: number;
  labels: Record<string, number>;
}

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
