import type { z } from "zod/mini";
import type { ErrorAnswer } from "../middleware/contract.ts";

/** One answer of a route: JSON with its schema, or another media type (HTML, an image, an event stream). */
export interface Answer {
  description: string;
  schema?: z.ZodMiniType;
  /** Default `application/json`; `none` for an answer without a body. */
  media?: string;
  /** Other media types the same status may answer, without a schema (a stream of the same answer). */
  alsoMedia?: string[];
}

export const json = (description: string, schema: z.ZodMiniType): Answer => ({ description, schema });

export type Tag = "public" | "visitor" | "admin" | "console" | "demo";

/**
 * What the contract says of a route beyond what its middleware declares (worker/middleware/contract.ts):
 * what it is for, its query, its answers, the errors its handler answers. Keyed by `METHOD /path`
 * as the app declares it (`op`), so a route the app has and this table lacks is found (openapi.test.ts).
 */
export interface RouteDoc {
  tag: Tag;
  summary: string;
  description?: string;
  /** The console's cookie, checked by the handler itself (CSRF header and same Origin on writes). */
  consoleAuth?: boolean;
  query?: z.ZodMiniObject;
  /** A body that is not JSON (a photo's bytes): its media types. */
  rawBody?: { media: string[]; description: string };
  answers: Record<number, Answer>;
  errors?: readonly ErrorAnswer[];
}

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** The table's key of a route: `POST /v1/sessions`. */
export const op = (method: Method, path: string) => `${method.toUpperCase()} ${path}`;

export type RouteDocs = Record<string, RouteDoc>;
