import { reset } from "cloudflare:test";
import { afterAll, vi } from "vitest";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import { clearLeases } from "../../../worker/limits/admission.ts";
import { clearPromptCache } from "../../../worker/prompts/agent-prompt-cache.ts";

// Worker test files take turns in a few workerd processes and share their module graph (`isolate: false`:
// the worker's modules load once per process, not once per file). Each file still starts as it did in a
// workerd of its own: its spies on `fetch` end with it, and its Durable Objects, KV and R2 are deleted
// (which also stops their alarms and streams), so nothing it left running reaches the next file's spies.
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  await reset();
  clearLeases();
  clearConfigCache();
  clearPromptCache();
});
