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

/**
 * A refusal the registry explains; crossing the Durable Object boundary keeps only the message,
 * so the code travels at its start (`code: message`) and errorFromRegistry reads it back.
 */
export class RegistryError extends Error {
  override name = "RegistryError";
  constructor(
    readonly code: "not_found" | "validation_failed" | "conflict",
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
