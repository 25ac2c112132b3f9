import type { Env as ParleyEnv } from "../../../worker/env.ts";

// Types `env` from cloudflare:workers / cloudflare:test as the worker's own Env.
declare global {
  namespace Cloudflare {
    interface Env extends ParleyEnv {}
  }
}
