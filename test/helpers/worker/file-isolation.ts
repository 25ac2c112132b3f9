import { abortAllDurableObjects, reset } from "cloudflare:test";
import { afterAll, vi } from "vitest";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import { clearLeases } from "../../../worker/limits/admission.ts";
import { clearPromptCache } from "../../../worker/prompts/agent-prompt-cache.ts";

// Worker test files take turns in a few workerd processes and share their module graph (`isolate: false`:
// the worker's modules load once per process, not once per file). Each file still starts as it did in a
// workerd of its own: its spies on `fetch` end with it, its Durable Objects are stopped (a reply still
// streaming would otherwise write into storage deleted under it, or call the next file's spies), and their
// storage, KV and R2 are deleted.
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  await abortAllDurableObjects();
  await reset();
  clearLeases();
  clearConfigCache();
  clearPromptCache();
});
