import type { KnowledgeDoc } from "../../shared/admin/knowledge-doc.ts";
import type { KnowledgeHit } from "../../shared/tools/knowledge-search.ts";
import type { Env } from "../env.ts";
import { TextIndex } from "./text-index.ts";

/**
 * Tenant documents live in KV under `docs:<tenantId>` (a JSON array); in demo mode the demo's fill
 * the demo tenant until its owner writes its own. Each isolate keeps its index for KNOWLEDGE_CACHE_MS:
 * a written or deleted document is ranked (or gone) at once on the isolate that served the write,
 * and on every other within that bound.
 */
export const KNOWLEDGE_CACHE_MS = 30_000;
const indexes = new Map<string, { at: number; index: TextIndex<KnowledgeDoc> }>();

// Keyed by mode too: one isolate may serve both in tests, and demo documents stay in demo mode.
const cacheKey = (env: Env, tenantId: string) => (env.demo ? `demo:${tenantId}` : tenantId);

/** The tenant's documents as knowledge_search ranks them (uncached: the owner's list reads this). */
export async function knowledgeDocs(env: Env, tenantId: string): Promise<KnowledgeDoc[]> {
  const stored = await env.CONFIG.get<KnowledgeDoc[]>(`docs:${tenantId}`, "json");
  return stored ?? [...(env.demo?.knowledge(tenantId) ?? [])];
}

/** Replaces the tenant's documents (the owner's console validated them) and drops this isolate's index. */
export async function saveKnowledgeDocs(env: Env, tenantId: string, docs: KnowledgeDoc[]): Promise<void> {
  await env.CONFIG.put(`docs:${tenantId}`, JSON.stringify(docs));
  indexes.delete(cacheKey(env, tenantId));
}

async function indexFor(env: Env, tenantId: string): Promise<TextIndex<KnowledgeDoc>> {
  const key = cacheKey(env, tenantId);
  const hit = indexes.get(key);
  if (hit && Date.now() - hit.at < KNOWLEDGE_CACHE_MS) return hit.index;
  const index = new TextIndex(await knowledgeDocs(env, tenantId));
  indexes.set(key, { at: Date.now(), index });
  return index;
}

export async function searchKnowledge(env: Env, tenantId: string, query: string, topK = 3): Promise<KnowledgeHit[]> {
  const index = await indexFor(env, tenantId);
  return index.search(query, topK).map(({ id, title, text, score }) => ({ id, title, text, score }));
}
