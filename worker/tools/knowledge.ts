import type { KnowledgeHit } from "../../shared/tools/knowledge-search.ts";
import type { Env } from "../env.ts";
import { PRESET_KNOWLEDGE } from "../presets/knowledge/index.ts";
import { TextIndex, type IndexedDoc } from "./text-index.ts";

/** Tenant documents live in KV under `docs:<tenantId>` (a JSON array); presets fill the demo tenant. */
const indexes = new Map<string, { at: number; index: TextIndex<IndexedDoc> }>();
const TTL_MS = 60_000;

async function indexFor(env: Env, tenantId: string): Promise<TextIndex<IndexedDoc>> {
  const hit = indexes.get(tenantId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.index;
  const stored = await env.CONFIG.get<IndexedDoc[]>(`docs:${tenantId}`, "json");
  const index = new TextIndex(stored ?? PRESET_KNOWLEDGE[tenantId] ?? []);
  indexes.set(tenantId, { at: Date.now(), index });
  return index;
}

export async function searchKnowledge(env: Env, tenantId: string, query: string, topK = 3): Promise<KnowledgeHit[]> {
  const index = await indexFor(env, tenantId);
  return index.search(query, topK).map(({ id, title, text, score }) => ({ id, title, text, score }));
}
