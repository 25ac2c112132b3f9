import { createStoreBase, type ChatStoreOptions } from "./store-base.ts";
import { createLiveSlice, type LiveSlice } from "./live-slice.ts";
import { createComposerSlice, type ComposerSlice } from "./composer-slice.ts";
import { createConversationSlice, type ConversationSlice } from "./conversation-slice.ts";
import { createTakeoverSlice, type TakeoverSlice } from "./takeover-slice.ts";
import { createFeedbackSlice, type FeedbackSlice } from "./feedback-slice.ts";
import { createDebugSlice, type DebugSlice } from "./debug-slice.ts";

export type { ChatStoreOptions, ViewMessage } from "./store-base.ts";
export type { ChatStatus } from "./live-slice.ts";

/**
 * The widget's state in signals, and the actions that change it; components only read these. One flat
 * surface made of slices, each declared and made in a file of its own: a component names the slices it
 * reads (`Pick`s of them), and the bundle keeps the short `store.x` reads it had (keys are never mangled).
 */
export interface ChatStore
  extends ConversationSlice, ComposerSlice, LiveSlice, TakeoverSlice, FeedbackSlice, DebugSlice {
  /** Ends what the store started: the live channel, a running turn, the online listeners, its effects. */
  dispose(): void;
}

/**
 * Makes the slices on one base (store-base.ts: the session, the host page's events, the shared
 * signals) and puts them together. The live slice, made first, asks the store itself to clear or
 * retry (as the panel would), which it does only once the store is whole.
 */
export function createChatStore(opts: ChatStoreOptions): ChatStore {
  const store = {} as ChatStore;
  const base = createStoreBase(opts);
  const live = createLiveSlice(base, store);
  const composer = createComposerSlice(base, live);
  const conversation = createConversationSlice(base, live, composer);
  return Object.assign(
    store,
    conversation.slice,
    composer.slice,
    live.slice,
    createTakeoverSlice(base, live),
    createFeedbackSlice(base),
    createDebugSlice(base),
    {
      dispose: () => {
        live.dispose();
        composer.dispose();
        base.host.dispose();
        conversation.dispose();
      },
    },
  );
}
