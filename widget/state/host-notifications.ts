import { effect, signal, type ReadonlySignal } from "@preact/signals";
import type { PublicAgent } from "../../shared/config/agent-config.ts";
import type { Emitter, WidgetMessage } from "./events.ts";
import type { SessionStore } from "./session-store.ts";
import type { Advice, StoredMessage } from "../../shared/session/session-events.ts";

/** A stored message as the "message" event hands it to the host page. */
const toPublic = (m: StoredMessage): WidgetMessage => ({
  id: m.id,
  role: m.role as WidgetMessage["role"],
  content: m.content,
  status: m.status,
});

/**
 * What the host page is told (`Parley.on`): messages, advice cards, the unread count while the
 * panel is closed, stage moves, errors. The stage effect is the one thing here that runs by itself;
 * `dispose` stops it.
 */
export function createHostNotifications(emitter: Emitter, session: SessionStore, isOpen: ReadonlySignal<boolean>) {
  /** Replies that arrived while the panel was closed; the launcher shows them as a badge. */
  const unread = signal(0);

  // Stage workflows tell the host page when the stage changes (after a turn, an edit, a completion).
  let lastStage = session.state.peek().stage.current;
  const disposeStage = effect(() => {
    const stage = session.state.value.stage;
    if (stage.current === lastStage) return;
    lastStage = stage.current;
    const agent: PublicAgent | null = session.agent.peek();
    if (agent?.stages.length)
      emitter.emit("stage", { current: stage.current, completed: [...stage.completed], done: stage.done });
  });

  return {
    unread,
    sent: (m: StoredMessage) => emitter.emit("message", toPublic(m)),
    replied(m: StoredMessage): void {
      emitter.emit("message", toPublic(m));
      if (!isOpen.peek()) emitter.emit("unread", ++unread.value);
    },
    advised: (list: readonly Advice[]) => {
      for (const a of list)
        emitter.emit("advice", { id: a.id, title: a.title, content: a.content, severity: a.severity });
    },
    opened(): void {
      emitter.emit("open", undefined);
      if (unread.value) emitter.emit("unread", (unread.value = 0));
    },
    closed: () => emitter.emit("close", undefined),
    failed: (code: string, message: string) => emitter.emit("error", { code, message }),
    dispose: disposeStage,
  };
}

export type HostNotifications = ReturnType<typeof createHostNotifications>;
