import { JURISDICTIONS, type Jurisdiction } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";

/**
 * A new conversation's id: a random UUID, after its site's jurisdiction (`eu-…`, `fedramp-…`) when the
 * site chose one. Every route, the owner's and the visitor's, then finds the conversation's object in the
 * right namespace from the id alone, with no lookup. A UUID holds only hex digits and hyphens, so no
 * id of a site without a jurisdiction can be read as having one.
 */
export function newSessionId(jurisdiction?: Jurisdiction): string {
  const id = crypto.randomUUID();
  return jurisdiction ? `${jurisdiction}-${id}` : id;
}

const PREFIX = new RegExp(`^(${JURISDICTIONS.join("|")})-`);

export function jurisdictionOf(sessionId: string): Jurisdiction | undefined {
  return PREFIX.exec(sessionId)?.[1] as Jurisdiction | undefined;
}

/**
 * The namespace a jurisdiction's objects are created in: `ns.jurisdiction(j)`, where Cloudflare creates
 * them in that jurisdiction's data centres and keeps them there; without one, the namespace itself.
 * Local workerd (wrangler dev, the worker tests) does not implement jurisdictions and throws; there, with
 * JURISDICTION_STAND_IN set, each jurisdiction's objects are named apart in the one local namespace
 * (`eu:<name>`), so the routing is still exercised. Elsewhere the error stands: an object is never
 * created outside the jurisdiction its site chose.
 */
export function placed<T extends Rpc.DurableObjectBranded | undefined>(
  env: Env,
  ns: DurableObjectNamespace<T>,
  jurisdiction: Jurisdiction | undefined,
): DurableObjectNamespace<T> {
  if (!jurisdiction) return ns;
  try {
    return ns.jurisdiction(jurisdiction);
  } catch (err) {
    if (env.JURISDICTION_STAND_IN === "1") return namedApart(ns, jurisdiction);
    const why = err instanceof Error ? err.message : String(err);
    throw new ApiError(
      503,
      "misconfigured",
      `This runtime cannot create objects in jurisdiction ${jurisdiction} (${why})`,
    );
  }
}

function namedApart<T extends Rpc.DurableObjectBranded | undefined>(
  ns: DurableObjectNamespace<T>,
  jurisdiction: Jurisdiction,
): DurableObjectNamespace<T> {
  const idFromName = (name: string) => ns.idFromName(`${jurisdiction}:${name}`);
  const local: Pick<DurableObjectNamespace<T>, "idFromName" | "get" | "getByName"> = {
    idFromName,
    get: (id, options) => ns.get(id, options),
    getByName: (name, options) => ns.get(idFromName(name), options),
  };
  return local as DurableObjectNamespace<T>;
}
