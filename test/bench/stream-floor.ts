import { randomUUID } from "node:crypto";
import type { SessionResponse } from "../../shared/wire/api.ts";
import { postJson, streamChat } from "./sse-client.ts";

/**
 * bench:stream's floor: the same reply through the same worker, read as curl reads it (node:http, no
 * page): a session of the clinic's site and agent, one streamed turn with a reply id, so it takes the
 * widget's path (the session's object runs the reply). Times, in this process's clock (wall()), when
 * the chunk with the last word arrived and when the stream ended.
 */
export interface FloorTurn {
  /** The chunk holding `marker` was read. */
  word: number;
  /** The response's end was read. */
  end: number;
}

export async function floorTurn(
  api: string,
  origin: string,
  ask: { siteKey: string; agentId: string },
  text: string,
  marker: string,
): Promise<FloorTurn> {
  const { status, json } = await postJson<SessionResponse>(`${api}/v1/sessions`, { origin }, ask);
  if (status !== 201) throw new Error(`POST /v1/sessions answered ${status}: ${JSON.stringify(json).slice(0, 300)}`);
  const body = {
    stream: true,
    messages: [{ id: randomUUID(), role: "user", content: text }],
    parley: { replyId: randomUUID() },
  };
  const r = await streamChat(
    `${api}/v1/chat/completions`,
    { authorization: `Bearer ${json.token}`, origin },
    body,
    300_000,
  );
  const at = r.contentChunks.find((c) => c.content.includes(marker))?.at;
  if (r.status !== 200 || at === undefined)
    throw new Error(`the floor's turn: status ${r.status}, ${r.errorBody ?? r.inbandError ?? r.content.slice(-200)}`);
  return { word: performance.timeOrigin + at, end: performance.timeOrigin + r.start + r.total };
}
