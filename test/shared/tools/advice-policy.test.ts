import { describe, expect, it } from "vitest";
import { adviceProblem } from "../../../shared/tools/advice-policy.ts";

describe("adviceProblem", () => {
  it("needs evidence that says something, and keeps urgent for the emergency category", () => {
    expect(adviceProblem({ evidence: ["NICE CKS eczema"], severity: "caution", category: "skin" })).toBeNull();
    expect(adviceProblem({ evidence: [], severity: "info", category: "skin" })).toMatch(
      /no evidence\. Add the evidence .* or do not record it/,
    );
    expect(adviceProblem({ evidence: [" "], severity: "info", category: "skin" })).toMatch(/no evidence/);
    expect(adviceProblem({ evidence: ["x"], severity: "urgent", category: "skin" })).toMatch(
      /only for category "emergency"/,
    );
    expect(adviceProblem({ evidence: ["x"], severity: "urgent", category: "Emergency" })).toBeNull();
  });
});
