import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { toolSchemasPlugin } from "./scripts/tool-schemas-plugin.ts";

export default defineConfig({
  test: {
    // Test files wait on sockets, timers, workerd and the browser more than on the CPU: three at once,
    // also on two cores (vitest's default there is one). `npm run test:quick` runs four: with three, the
    // worker files' first minute leaves a third of two cores idle (they wait on timers and sockets).
    maxWorkers: 3,
    // The default output, and the provider conformance matrix when its tests ran (npm run test:providers).
    reporters: ["default", "./test/helpers/providers/matrix-reporter.ts"],
    // Between worker test files the harness stops every Durable Object (test/helpers/worker/file-isolation.ts):
    // a reply a file left streaming then fails with this message, on purpose, not as a bug of the next file.
    onUnhandledError: (error) => error?.message !== "Application called abortAllDurableObjects().",
    projects: [
      {
        // Worker tests run inside workerd with real Durable Objects and KV (miniflare).
        plugins: [
          cloudflareTest({
            main: "./worker/index.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // Demo mode as `npm start` runs it; a test passes `{ DEMO_MODE: "" }` for a deployed worker.
              // Jurisdictions: workerd implements none, so their objects get the local stand-in
              // (worker/placement/jurisdiction.ts), and their photo buckets are local ones.
              // The webhook outbox's 24 h retry schedule runs in about 2 s, each attempt waits 500 ms at most.
              // Provider keys as `wrangler secret put` sets them: a test's site names its provider in a profile
              // (test/helpers/worker/sites.ts), and the chat route and the session's object, which runs a
              // streamed reply, both read the key from these bindings.
              bindings: {
                SESSION_SECRET: "test-session-secret-0123456789abcdef",
                LLM_API_KEY: "sk-test-secret",
                LLM_TEST_KEY: "sk-fixture-key",
                DEMO_MODE: "1",
                DEMO_CHUNK_MS: "0",
                JURISDICTION_STAND_IN: "1",
                WEBHOOK_RETRY_SCALE: "0.00002",
                WEBHOOK_TIMEOUT_MS: "500",
                // The client secret of the scripted OpenID provider's client (oidc-issuer-setup.ts).
                OIDC_TEST_SECRET: "test-client-secret-0123456789",
              },
              r2Buckets: { PHOTOS_EU: "parley-photos-eu", PHOTOS_FEDRAMP: "parley-photos-fedramp" },
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // Files take turns in each workerd and share its module graph: the worker's thousand modules load once
          // per process, not once per file. Each file still starts on empty storage and restored spies
          // (file-isolation.ts).
          isolate: false,
          setupFiles: ["test/helpers/worker/file-isolation.ts"],
          // A bound for a loaded two-core machine, three files at once: no test waits for it to pass.
          testTimeout: 20_000,
          hookTimeout: 30_000,
          globalSetup: [
            "test/helpers/worker/assets-dir.ts",
            "test/helpers/worker/upstream-setup.ts",
            "test/helpers/worker/hook-receiver-setup.ts",
            "test/helpers/worker/mcp-server-setup.ts",
            "test/helpers/worker/oidc-issuer-setup.ts",
            "test/helpers/worker/doh-setup.ts",
          ],
        },
      },
      {
        // Pure logic (shared contract, the widget's agent loop, the console's pure helpers) in Node; the tool
        // runtime's schemas as the build makes them.
        plugins: [toolSchemasPlugin()],
        test: {
          name: "unit",
          include: ["test/{shared,widget,arch,scripts,console}/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        // What the build wrote (dist/), read as files: after `npm run build`, no browser or worker.
        test: { name: "build", include: ["test/build/**/*.test.ts"], environment: "node" },
      },
      {
        // The built bundle in headless Chromium, against one worker and one browser for the whole run
        // (test/helpers/e2e-setup.ts); each file makes a site of its own.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/helpers/e2e-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Files share the worker and the browser but not a site; modules (Playwright, the helpers) are
          // loaded once per test process.
          isolate: false,
          // A poll ends when its event comes; the bound is for a loaded machine, not a wait.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
