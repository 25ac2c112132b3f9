import { computed, type ReadonlySignal } from "@preact/signals";
import type { Rating } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { StoreBase } from "./store-base.ts";

/** The visitor's thumbs up or down on replies. */
export interface FeedbackSlice {
  /** The visitor's ratings by reply message id, from the session (the worker stores them as events). */
  feedback: ReadonlySignal<SessionState["feedback"]>;
  /** A thumbs up or down on a reply; a thumbs-down's comment goes to the site's strategy desk. */
  rate(messageId: string, rating: Rating, comment?: string): Promise<void>;
}

export function createFeedbackSlice({ session, fail }: StoreBase): FeedbackSlice {
  return {
    feedback: computed(() => session.state.value.feedback ?? {}),
    async rate(messageId, rating, comment) {
      try {
        const body = { messageId, rating, ...(comment ? { comment } : {}) };
        const res = await session.api.call(ROUTES.sessionFeedback, await session.ensure(), { body });
        session.apply(res.events);
      } catch (e) {
        fail(e);
      }
    },
  };
}
