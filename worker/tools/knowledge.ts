import type { KnowledgeHit } from "../../shared/tools/knowledge-search.ts";
import type { Env } from "../env.ts";
import { TextIndex, type IndexedDoc } from "./text-index.ts";

/** Tenant documents live in KV under `docs:<tenantId>` (a JSON array); in demo mode the demo's fill the demo tenant. */
const indexes = new Map<string, { at: number; index: TextIndex<IndexedDoc> }>();
const TTL_MS = 60_000;

async function indexFor(env: Env, tenantId: string): Promise<TextIndex<IndexedDoc>> {
  // Keyed by mode too: one isolate may serve both in tests, and demo documents stay in demo mode.
  const key = env.demo ? `demo:${tenantId}` : tenantId;
  const hit = indexes.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.index;
  const stored = await env.CONFIG.get<IndexedDoc[]>(`docs:${tenantId}`, "json");
  const index = new TextIndex(stored ?? env.demo?.knowledge(tenantId) ?? []);
  indexes.set(key, { at: Date.now(), index });
  return index;
}

export async function searchKnowledge(env: Env, tenantId: string, query: string, topK = 3): Promise<KnowledgeHit[]> {
  const index = await indexFor(env, tenantId);
  return index.search(query, topK).map(({ id, title, text, score }) => ({ id, title, text, score }));
}
