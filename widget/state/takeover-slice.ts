import type { LiveParts } from "./live-slice.ts";
import type { StoreBase } from "./store-base.ts";
import type { TakeoverContext } from "./takeover-actions.ts";

/**
 * What takeover's visitor side (its lazy chunks: the bar, the contact form, their steps) works with.
 * Which side answers a message, the agent or the person, is the live slice's turn.
 */
export interface TakeoverSlice {
  /** The worker and the session, for takeover's steps (takeover-actions.ts). */
  takeover: TakeoverContext;
  /** Opens the live channel now (a person was asked for before any reply: their joining must be heard). */
  goLive(): void;
}

export function createTakeoverSlice(base: StoreBase, live: LiveParts): TakeoverSlice {
  return { takeover: base.ctx, goLive: live.goLive };
}
