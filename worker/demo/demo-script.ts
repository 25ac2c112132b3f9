/**
 * Scripted conversations replayed by the demo model (offline demo, tests, benchmarks).
 * A script is a list of turns; the turn is chosen from the visitor's latest message, and the
 * step within it from how many assistant messages followed that message. Deterministic.
 */
export interface DemoToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface DemoStep {
  content?: string;
  toolCalls?: DemoToolCall[];
}

export interface DemoTurn {
  /** Lower-case fragments; the turn applies when the visitor's message contains any of them. */
  when?: string[];
  /**
   * Lower-case fragments of the system prompt; when given, the turn applies only if the system
   * prompt contains one, so a prompt the strategy desk changed is followed by the demo too.
   */
  system?: string[];
  /** The turn applies when the visitor's latest message carries a photo (checked before `when`). */
  photo?: boolean;
  /** What the demo model answers when asked to classify this message (router); default "unclear". */
  intent?: string;
  steps: DemoStep[];
  /**
   * The same steps in Chinese, for a visitor who writes Chinese: the demo answers in the visitor's
   * language as a model does, its advice cards and follow-up chips included. Step for step as `steps`.
   */
  zh?: DemoStep[];
}

export interface DemoScript {
  agentId: string;
  turns: DemoTurn[];
  /** Used when no turn's `when` matches. */
  fallback: DemoTurn;
  /** Arguments of tools a request forces (e.g. the vision model's `report_skin_findings`). */
  forced?: Record<string, Record<string, unknown>>;
  /** The same, in Chinese (the request's own text is Chinese). */
  forcedZh?: Record<string, Record<string, unknown>>;
}
