import { describe, expect, it } from "vitest";
import { emptySession, foldSession, reduceSession } from "../../../shared/session/session.ts";
import { SessionEvent as SessionEventSchema } from "../../../shared/session/session-events.ts";
import { ClientEvent } from "../../../shared/session/client-events.ts";
import type { SessionEvent } from "../../../shared/session/session-events.ts";

const usage = (id: string, p: number, c: number): SessionEvent => ({
  id,
  at: 1,
  type: "usage.recorded",
  data: { replyId: "r", model: "m", promptTokens: p, completionTokens: c },
});

describe("usage.recorded in the shared reducer", () => {
  it("sums every completion's tokens into the session's usage", () => {
    const s = foldSession([usage("usage:1", 10, 5), usage("usage:2", 7, 3)]);
    expect(s.usage).toEqual({ promptTokens: 17, completionTokens: 8, totalTokens: 25 });
    expect(s.version).toBe(2);
  });

  it("folds onto a state from an older worker that had no usage yet", () => {
    const { usage: _u, ...old } = emptySession();
    expect(reduceSession(old as never, usage("usage:1", 1, 2)).usage.totalTokens).toBe(3);
  });

  it("is the worker's alone: a widget cannot append it, nor negative tokens", () => {
    expect(ClientEvent.safeParse(usage("usage:1", 1, 1)).success).toBe(false);
    expect(SessionEventSchema.safeParse(usage("usage:1", 1, 1)).success).toBe(true);
    expect(SessionEventSchema.safeParse(usage("usage:1", -100, 1)).success).toBe(false);
  });
});
