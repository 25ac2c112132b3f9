import type { Env as ParleyEnv } from "../../../worker/env.ts";

// Types `env` from cloudflare:workers / cloudflare:test as the worker's own Env.
declare global {
  namespace Cloudflare {
    interface Env extends ParleyEnv {
      /** A provider profile's key secret, bound for the worker tests (vitest.config.ts). */
      LLM_TEST_KEY?: string;
    }
  }
}
