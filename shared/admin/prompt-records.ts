/** What the prompt registry stores and the owner's prompt routes answer (worker/prompts/prompt-registry.ts). */
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
