import type { z } from "zod/mini";
import type { ErrorCode } from "../../shared/wire/errors.ts";

/** How a caller proves who it is: a visitor's session token, the site owner's admin key or console cookie. */
export type AuthKind = "session" | "admin";

/** An answer a route may give instead of its own: its status and error code. */
export type ErrorAnswer = readonly [status: number, code: ErrorCode];

/**
 * What a middleware adds to the API contract of every route it runs on: the auth it demands, the
 * body it validates (the very schema), the errors it answers. The OpenAPI document
 * (worker/openapi/) reads these off the app's routes, so what it says is what the worker checks.
 */
export interface MiddlewareContract {
  auth?: AuthKind;
  body?: z.ZodMiniType;
  errors?: readonly ErrorAnswer[];
}

const CONTRACT = Symbol.for("parley.contract");

/** The middleware, carrying its contract (hono-openapi's habit of describing a route by its middleware). */
export function withContract<F extends object>(middleware: F, contract: MiddlewareContract): F {
  Object.defineProperty(middleware, CONTRACT, { value: contract });
  return middleware;
}

export function contractOf(handler: unknown): MiddlewareContract | undefined {
  return (handler as { [CONTRACT]?: MiddlewareContract } | null)?.[CONTRACT];
}
