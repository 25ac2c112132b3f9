import type { WebResult } from "../../shared/tools/web-search.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";

const TAVILY_URL = "https://api.tavily.com/search";
const TIMEOUT_MS = 10_000;

/**
 * Web search through Tavily's HTTP API with the key only the worker holds. Results go back as
 * the provider ranks them — no LLM summary step (the medical Q&A desk's quick path found that step
 * cost seconds and added nothing). Without a key, fixture pages stand in for the offline demo;
 * outside demo mode the tool answers 503: the owner has not configured it.
 */
export async function searchWeb(
  env: Env,
  query: string,
  maxResults = 5,
): Promise<{ results: WebResult[]; source: "tavily" | "fixtures" }> {
  if (!env.TAVILY_API_KEY) {
    if (env.demo) return { results: env.demo.webSearch(query, maxResults), source: "fixtures" };
    throw new ApiError(503, "tool_failed", "Web search is not configured: set the TAVILY_API_KEY secret");
  }
  let res: Response;
  try {
    res = await fetch(TAVILY_URL, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${env.TAVILY_API_KEY}` },
      body: JSON.stringify({ query, max_results: maxResults, search_depth: "basic", include_answer: false }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw timedOut
      ? new ApiError(504, "upstream_timeout", `Web search did not answer within ${TIMEOUT_MS / 1000} s`)
      : new ApiError(502, "tool_failed", "Web search could not be reached");
  }
  if (!res.ok) throw new ApiError(502, "tool_failed", `Web search answered ${res.status}`, { status: res.status });
  const body = (await res.json().catch(() => ({}))) as {
    results?: Array<{ title?: string; url?: string; content?: string }>;
  };
  const results = (body.results ?? [])
    .filter((r) => typeof r.url === "string" && /^https?:\/\//.test(r.url))
    .map((r) => ({ title: r.title ?? r.url!, url: r.url!, snippet: (r.content ?? "").slice(0, 600) }));
  return { results, source: "tavily" };
}
