import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { ApiError } from "../../worker/errors.ts";
import { registryCall } from "../../worker/prompts/registry-errors.ts";
import { promptRegistry } from "../../worker/objects.ts";

const refusedWith = async (call: Promise<unknown>) => {
  const err = await registryCall(call).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const { status, code, message } = err as ApiError;
  return { status, code, message };
};

describe("registry refusals across the Durable Object boundary", () => {
  it("keep their code as data: a refusal from the registry is a 404 with its own message", async () => {
    const call = promptRegistry(env, "registry-errors-site-1").deskPrompt("strategy-desk/no-such-prompt");
    const message = "No desk prompt strategy-desk/no-such-prompt";
    expect(await refusedWith(call)).toEqual({ status: 404, code: "not_found", message });
  });

  it("never read a code out of a message: a failure that only says so is the store failing (503)", async () => {
    const failure = await refusedWith(Promise.reject(new Error("not_found: looks like a refusal")));
    expect(failure).toMatchObject({ status: 503, code: "upstream_unreachable" });
  });
});
