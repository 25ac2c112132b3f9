/** The `:name` parameters of a route pattern (shared/wire/routes.ts), as a union of their names. */
type ParamsOf<P extends string> = P extends `${string}:${infer K}/${infer Rest}`
  ? K | ParamsOf<Rest>
  : P extends `${string}:${infer K}`
    ? K
    : never;
export type RouteParams<P extends string> = Record<ParamsOf<P>, string>;

/** A route's path with its parameters filled in, each URL-encoded (an id can never add a segment). */
export function routePath<P extends string>(
  pattern: P,
  ...[params]: ParamsOf<P> extends never ? [] : [RouteParams<P>]
): string {
  const values = (params ?? {}) as Record<string, string>;
  return pattern.replace(/:(\w+)/g, (_m, key: string) => encodeURIComponent(values[key]));
}
