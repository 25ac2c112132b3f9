import { Hono, type Context } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { KNOWLEDGE_LIMITS, KnowledgeDocInput, type KnowledgeDoc } from "../../shared/admin/knowledge-doc.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { knowledgeSearch } from "../../shared/tools/knowledge-search.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { KNOWLEDGE_CACHE_MS, knowledgeDocs, saveKnowledgeDocs, searchKnowledge } from "../tools/knowledge.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/**
 * The documents knowledge_search ranks for the site's tenant (`docs:<tenantId>`), for its owner:
 * list, add, edit, remove, and what a query retrieves, ranked exactly as the tool ranks it.
 */
export const knowledgeAdminRoutes = new Hono<AdminEnv>();

const summary = ({ text, ...doc }: KnowledgeDoc) => ({ ...doc, chars: text.length, excerpt: text.slice(0, 160) });

function docIndex(c: Context<AdminEnv>, docs: KnowledgeDoc[]) {
  const id = c.req.param("doc") ?? "";
  const at = docs.findIndex((d) => d.id === id);
  if (at < 0) throw new ApiError(404, "not_found", `No document ${JSON.stringify(id)}`);
  return at;
}

knowledgeAdminRoutes.get(ROUTES.adminKnowledge, async (c) => {
  const docs = await knowledgeDocs(c.env, c.var.site.tenantId);
  return c.json({
    tenantId: c.var.site.tenantId,
    documents: docs.map(summary),
    takesEffectWithinMs: KNOWLEDGE_CACHE_MS,
  } satisfies AdminAnswer<"GET", typeof ROUTES.adminKnowledge>);
});

knowledgeAdminRoutes.post(ROUTES.adminKnowledge, jsonBody(KnowledgeDocInput), async (c) => {
  const tenantId = c.var.site.tenantId;
  const docs = await knowledgeDocs(c.env, tenantId);
  if (docs.length >= KNOWLEDGE_LIMITS.docs)
    throw new ApiError(409, "conflict", `A site keeps at most ${KNOWLEDGE_LIMITS.docs} documents; remove one first`);
  const doc: KnowledgeDoc = {
    id: `doc-${crypto.randomUUID().slice(0, 8)}`,
    ...c.req.valid("json"),
    updatedAt: Date.now(),
  };
  await saveKnowledgeDocs(c.env, tenantId, [...docs, doc]);
  return c.json({ document: doc } satisfies AdminAnswer<"POST", typeof ROUTES.adminKnowledge>, 201);
});

knowledgeAdminRoutes.get(ROUTES.adminKnowledgeDoc, async (c) => {
  const docs = await knowledgeDocs(c.env, c.var.site.tenantId);
  return c.json({ document: docs[docIndex(c, docs)] } satisfies AdminAnswer<"GET", typeof ROUTES.adminKnowledgeDoc>);
});

knowledgeAdminRoutes.put(ROUTES.adminKnowledgeDoc, jsonBody(KnowledgeDocInput), async (c) => {
  const tenantId = c.var.site.tenantId;
  const docs = await knowledgeDocs(c.env, tenantId);
  const at = docIndex(c, docs);
  const doc: KnowledgeDoc = { id: docs[at].id, ...c.req.valid("json"), updatedAt: Date.now() };
  await saveKnowledgeDocs(
    c.env,
    tenantId,
    docs.map((d, i) => (i === at ? doc : d)),
  );
  return c.json({ document: doc } satisfies AdminAnswer<"PUT", typeof ROUTES.adminKnowledgeDoc>);
});

knowledgeAdminRoutes.delete(ROUTES.adminKnowledgeDoc, async (c) => {
  const tenantId = c.var.site.tenantId;
  const docs = await knowledgeDocs(c.env, tenantId);
  const at = docIndex(c, docs);
  await saveKnowledgeDocs(
    c.env,
    tenantId,
    docs.filter((_, i) => i !== at),
  );
  return c.json({ deleted: docs[at].id } satisfies AdminAnswer<"DELETE", typeof ROUTES.adminKnowledgeDoc>);
});

/** The tool's own input schema: what the owner tries is what the agent would ask. */
knowledgeAdminRoutes.post(ROUTES.adminKnowledgeSearch, jsonBody(knowledgeSearch.input), async (c) => {
  const { query, top_k } = c.req.valid("json");
  const hits = await searchKnowledge(c.env, c.var.site.tenantId, query, top_k ?? 5);
  return c.json({ query, hits } satisfies AdminAnswer<"POST", typeof ROUTES.adminKnowledgeSearch>);
});
