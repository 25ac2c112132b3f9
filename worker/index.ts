import { z } from "zod/mini";
import { createApp } from "./app.ts";

// zod/mini ships without messages; the worker wants validation errors a developer can act on.
z.config(z.locales.en());

export { SessionRoom } from "./session/session-room.ts";
export { RateLimiter } from "./limits/rate-limiter.ts";
export { SiteLedger } from "./limits/site-ledger.ts";
export { PromptRegistry } from "./prompts/prompt-registry.ts";

export default createApp();
