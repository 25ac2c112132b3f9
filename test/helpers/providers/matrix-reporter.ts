import type { Reporter, TestModule } from "vitest/node";
import { CASES, PROVIDERS } from "./index.ts";

/**
 * Prints the provider conformance matrix (provider x case) after a run that included
 * test/worker/providers.test.ts, from its tests' names (`<provider> › <case>`); nothing otherwise.
 * A case that did not run shows `·`.
 */
export default class ProviderMatrixReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const states = new Map<string, string>();
    for (const m of modules) {
      if (!m.moduleId.endsWith("providers.test.ts")) continue;
      for (const t of m.children.allTests()) states.set(t.name, t.result().state);
    }
    if (!states.size) return;
    const mark = (s: string | undefined) => (s === "passed" ? "ok" : s === "failed" ? "FAIL" : "·");
    const first = Math.max(...PROVIDERS.map((p) => p.name.length));
    const widths = CASES.map((c) => Math.max(c.length, 4));
    const row = (name: string, cells: string[]) =>
      [name.padEnd(first), ...cells.map((c, i) => c.padEnd(widths[i]))].join(" | ").trimEnd();
    const lines = [
      row("provider", [...CASES]),
      row(
        "-".repeat(first),
        widths.map((w) => "-".repeat(w)),
      ),
    ];
    let failed = 0;
    let passed = 0;
    for (const p of PROVIDERS) {
      const cells = CASES.map((c) => mark(states.get(`${p.name} › ${c}`)));
      failed += cells.filter((c) => c === "FAIL").length;
      passed += cells.filter((c) => c === "ok").length;
      lines.push(row(p.name, cells));
    }
    const total = PROVIDERS.length * CASES.length;
    process.stdout.write(`\nProvider conformance (test/worker/providers.test.ts)\n${lines.join("\n")}\n`);
    process.stdout.write(`${passed}/${total} passed${failed ? `, ${failed} failed` : ""}\n\n`);
  }
}
