import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, toErrorResponse } from "../../worker/errors.ts";

describe("ApiError", () => {
  it("is a hono HTTPException whose response is the JSON error shape with its status and headers", async () => {
    const err = new ApiError(429, "rate_limited", "Too many requests", {}, { "retry-after": "3" });
    expect(err).toBeInstanceOf(HTTPException);
    const res = err.getResponse();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toEqual({ error: { code: "rate_limited", message: "Too many requests" } });
  });

  it("keeps the code it was thrown with, whatever its message says; hono's own get theirs by status", async () => {
    const app = new Hono();
    app.onError(toErrorResponse);
    app.get("/api", () => {
      throw new ApiError(409, "conflict", "Malformed JSON in request body");
    });
    app.get("/hono", () => {
      throw new HTTPException(400, { message: "Malformed JSON in request body" });
    });
    const api = await app.request("/api");
    expect(api.status).toBe(409);
    expect(((await api.json()) as any).error.code).toBe("conflict");
    const hono = await app.request("/hono");
    const error = ((await hono.json()) as any).error;
    expect(error).toEqual({ code: "bad_request", message: "Malformed JSON in request body" });
  });
});
