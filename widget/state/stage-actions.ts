import { signal } from "@preact/signals";
import type { ActionCard } from "../../shared/config/stage-config.ts";
import { contextValue, type RuleCheck } from "../../shared/stages/stage-machine.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { errorCode, isHttpError } from "../transport/errors.ts";
import type { SessionStore } from "./session-store.ts";
import type { FieldValue, FieldValues } from "../../shared/stages/field-value.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

export interface StageActionsOptions {
  session: SessionStore;
}

/** What the stage panel shows after an action: checks of a completion attempt, or a refused edit. */
export interface StageFeedback {
  stageId: string;
  kind: "checks" | "conflict" | "error";
  checks?: RuleCheck[];
  /** Errors: the code the visitor's text is chosen by (widget/i18n), and the server's Retry-After. */
  code?: string;
  retryAfter?: number;
}

/**
 * The stage panel's actions against the session API: edit a field (sent with the context version
 * it was based on; a 409 reloads the newer values and says so), complete a stage (its checks come
 * back when something blocks or warns), and run action cards.
 */
export function createStageActions(opts: StageActionsOptions) {
  const { session } = opts;
  const feedback = signal<StageFeedback | null>(null);
  const pending = signal(false);
  const { api } = session;

  async function run<T extends { events?: SessionEvent[] }>(
    stageId: string,
    work: () => Promise<T>,
  ): Promise<T | null> {
    pending.value = true;
    try {
      const res = await work();
      if (res.events?.length) session.apply(res.events);
      return res;
    } catch (e) {
      if (isHttpError(e) && e.status === 409) {
        await session.refresh().catch(() => {});
        feedback.value = { stageId, kind: "conflict" };
      } else {
        feedback.value = {
          stageId,
          kind: "error",
          code: errorCode(e),
          retryAfter: isHttpError(e) ? e.retryAfter : undefined,
        };
      }
      return null;
    } finally {
      pending.value = false;
    }
  }

  async function editField(stageId: string, field: string, value: FieldValue): Promise<boolean> {
    feedback.value = null;
    const baseVersion = session.state.value.contextVersion;
    return (
      (await run(stageId, () =>
        api.call(ROUTES.sessionContext, session.auth(), {
          method: "PATCH",
          body: { stageId, field, value, baseVersion },
        }),
      )) !== null
    );
  }

  async function complete(stageId: string): Promise<boolean> {
    feedback.value = null;
    const res = await run(stageId, () =>
      api.call(ROUTES.stageComplete, session.auth(), { method: "POST" }, { stageId }),
    );
    if (!res) return false;
    const shown = res.checks.filter((c) => !c.passed && c.action !== "log");
    if (shown.length) feedback.value = { stageId, kind: "checks", checks: shown };
    return res.completed;
  }

  /** Posts an action card's result (modal, deep link) or runs it through the worker (api_call). */
  async function resolveAction(stageId: string, card: ActionCard, result?: FieldValues): Promise<FieldValues | null> {
    feedback.value = null;
    const res = await run(stageId, () =>
      api.call(ROUTES.action, session.auth(), { body: { stageId, result } }, { cardId: card.id }),
    );
    return res?.result ?? null;
  }

  /** A deep link's URL with the context filled in (URL-encoded); only http(s) URLs are ever opened. */
  function deepLink(stageId: string, card: ActionCard): string | null {
    if (!card.url) return null;
    const ctx = session.state.value.context;
    const href = card.url.replace(/\{([a-z0-9_.-]+)\}/gi, (_m, path: string) => {
      const v = contextValue(ctx, path, stageId);
      return encodeURIComponent(Array.isArray(v) ? v.join(", ") : v == null ? "" : String(v));
    });
    try {
      const url = new URL(href);
      return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
    } catch {
      return null;
    }
  }

  return { feedback, pending, editField, complete, resolveAction, deepLink, dismiss: () => (feedback.value = null) };
}

export type StageActions = ReturnType<typeof createStageActions>;

const made = new WeakMap<StageActionsOptions, StageActions>();
/** One set of actions per chat store, so feedback survives switching between the chat and the stage panel. */
export function stageActionsFor(opts: StageActionsOptions): StageActions {
  let actions = made.get(opts);
  if (!actions) made.set(opts, (actions = createStageActions(opts)));
  return actions;
}
