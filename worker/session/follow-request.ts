import type { Admission } from "./admission-check.ts";

/**
 * A visitor's reattachment as the session's object receives it: a plain `fetch` to the object
 * rather than an RPC call answering a ReadableStream. In workerd an RPC stream costs the isolate
 * about twice what a fetch body does, and a reconnect storm is hundreds of these at once on the
 * one thread (the reconnect storm bench:load drives). The route has checked the token, origin and query.
 */
export interface FollowAsk {
  after: number;
  reply?: string;
  from: number;
  perMinute: number;
  /** The channel's page, which is not sent the text of the replies it streams itself. */
  tab?: string;
}

const FOLLOW_URL = "https://room/follow";
/** The object's answer when the session's own limits refuse: its body is the refusal (JSON). */
const REFUSED_STATUS = 429;

export function followRequest(ask: FollowAsk): Request {
  const q = new URLSearchParams({ after: String(ask.after), from: String(ask.from), pm: String(ask.perMinute) });
  if (ask.reply) q.set("reply", ask.reply);
  if (ask.tab) q.set("tab", ask.tab);
  return new Request(`${FOLLOW_URL}?${q}`);
}

/** The ask, when `url` is one; null for the object's other fetches (a WebSocket upgrade). */
export function readFollowRequest(url: string): FollowAsk | null {
  if (!url.startsWith(FOLLOW_URL)) return null;
  const q = new URL(url).searchParams;
  const reply = q.get("reply");
  const tab = q.get("tab");
  return {
    after: Number(q.get("after")),
    from: Number(q.get("from")),
    perMinute: Number(q.get("pm")),
    ...(reply ? { reply } : {}),
    ...(tab ? { tab } : {}),
  };
}

/**
 * Why the object did not attach a client: the session's own limits (admission-check.ts), or as many
 * live connections open as the session may hold (live-limits.ts).
 */
export type FollowRefusal = Exclude<Admission, { ok: true }> | { ok: false; reason: "connections"; cap: number };

export function refusedResponse(refused: FollowRefusal): Response {
  return Response.json(refused, { status: REFUSED_STATUS });
}

/** The refusal the object answered instead of the stream, or null when it streams. */
export async function followRefusal(res: Response): Promise<FollowRefusal | null> {
  if (res.status !== REFUSED_STATUS) return null;
  return (await res.json()) as FollowRefusal;
}
