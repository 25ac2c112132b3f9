import { DurableObject } from "cloudflare:workers";
import { consentEvent, sessionOpenedEvent, stageChangedEvent } from "../../shared/session/events.ts";
import type { ConsentKind } from "../../shared/session/consent.ts";
import type { Eraser } from "../../shared/session/live.ts";
import { emptySession, type SessionState } from "../../shared/session/session.ts";
import type { FeedbackInput, SessionEvent } from "../../shared/session/session-events.ts";
import type { ClientEvent } from "../../shared/session/client-events.ts";
import type { StageConfig } from "../../shared/config/stage-config.ts";
import type { Env } from "../env.ts";
import { SlidingWindow } from "../limits/sliding-window.ts";
import { INDEX_DELAY_MS, INDEX_WHILE_STREAMING_MS, IndexPushes } from "./index-push.ts";
import { EventLog, type LoggedEvent } from "./event-log.ts";
import { RoomAlarm } from "./room-alarm.ts";
import { LIVE } from "../../shared/session/live.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { feedbackOutcome, type FeedbackOutcome } from "./feedback-ops.ts";
import { LiveHub } from "./live-hub.ts";
import { LIVE_LIMITS } from "./live-limits.ts";
import { readUpgrade } from "./live-upgrade.ts";
import { cutReplies, runReply, type ReplyStart } from "./reply-runner.ts";
import type { Turn } from "./turn-record.ts";
import { admitState, type Admission, type ConsentVersions } from "./admission-check.ts";
import { clientEvents, type ClientRefusal } from "./client-events.ts";
import type { TurnIds } from "./message-ids.ts";
import { readFollowRequest, refusedResponse } from "./follow-request.ts";
import { takeoverStep, type TakeoverOp, type TakeoverOutcome } from "./takeover-ops.ts";
import { queuedRequest, queueVerdict } from "./queue-expiry.ts";
import { loadSite } from "../config/config-store.ts";
import { ToolResults, type RecordedTool, type ToolClaim } from "./tool-results.ts";
import { OwnerNotes, type OwnerNote } from "./owner-notes.ts";
import { PrivacyRecord, type RoomPrivacy } from "./room-privacy.ts";
import { redactTraceSteps } from "../privacy/redact-values.ts";
import { redactText } from "../privacy/redact-text.ts";
import { deleteSessionPhotos } from "../photos/photo-store.ts";
import { emitWebhooks } from "../webhooks/emit.ts";
import { sessionWebhookMessages } from "../webhooks/session-hooks.ts";
import {
  completeStage,
  updateContext,
  type CompleteRequest,
  type ContextRequest,
  type StageOutcome,
} from "./stage-ops.ts";
import { webhookOutbox } from "../objects.ts";

export type { FeedbackOutcome } from "./feedback-ops.ts";

export type { Admission } from "./admission-check.ts";

/** How long an erasure waits for the replies it stopped to end (each ends within DRAIN_MS of its Stop). */
const ERASE_WAIT_MS = 5_000;

/**
 * One session: its append-only event log (event-log.ts) and the state folded from it by the shared
 * reducer, its live channel and streamed replies (live-hub.ts), its alarm (room-alarm.ts). The
 * object serializes every call, so each method here is one step on the state; the work itself lives
 * in the modules it names.
 */
export class SessionRoom extends DurableObject<Env> {
  private state: SessionState;
  /** Requests per minute of this session (see RateLimiter for why memory is enough). */
  private readonly rate = new SlidingWindow();
  private readonly log: EventLog;
  /** The index push and the queued request's next look share the object's alarm (room-alarm.ts). */
  private readonly alarms: RoomAlarm;
  /** The live channel's clients and the replies being streamed (live-hub.ts). */
  private readonly hub: LiveHub;
  /** Edge tool results by call id: a repeated id is answered from here (tool-results.ts). */
  private readonly tools: ToolResults;
  /** What the site's index was last sent (index-push.ts). */
  private readonly pushes = new IndexPushes();
  /** The owner's notes on trace steps, never in the log a visitor reads (owner-notes.ts). */
  private readonly notes: OwnerNotes;
  /** What the site chose for this conversation's data when it opened: redaction, keep nothing (room-privacy.ts). */
  private readonly privacy: PrivacyRecord;
  /** Webhook events go to the site's outbox one batch after another, so a conversation's stay in order. */
  private webhooks: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = new EventLog(ctx.storage);
    this.alarms = new RoomAlarm(ctx.storage);
    this.privacy = new PrivacyRecord(ctx.storage.kv);
    this.state = this.log.fold();
    this.hub = new LiveHub(
      ctx,
      (seq) => this.log.after(seq),
      (perMinute) => this.rate.hit(perMinute, 60_000, Date.now()).ok,
    );
    this.tools = new ToolResults(ctx.storage.sql);
    this.notes = new OwnerNotes(ctx.storage.sql);
    // Pings are answered by the runtime without waking the object: an idle socket costs nothing.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(LIVE.ping, LIVE.pong));
    const cut = cutReplies(ctx.storage.sql);
    if (cut.length) this.store(cut);
  }

  /**
   * Creates the session once (and starts its first stage, if the agent has stages), with its site's
   * privacy settings as they are now and the consent version the visitor agreed to where the agent
   * asks one (checked by the route); again: the existing state.
   */
  async open(
    data: { sessionId: string; siteKey: string; agentId: string; locale?: string },
    firstStage?: string,
    privacy?: RoomPrivacy,
    consent?: string,
  ): Promise<SessionState> {
    if (this.state.sessionId) return this.state;
    if (privacy) this.privacy.set(privacy);
    const at = Date.now();
    const events: SessionEvent[] = [sessionOpenedEvent(data, at)];
    if (consent) events.push(consentEvent("chat", consent, at));
    if (firstStage) events.push(stageChangedEvent(null, firstStage, "started", at, "stage:start"));
    this.store(events);
    return this.state;
  }

  /**
   * The visitor agreed to a notice's version (the consent route checked it is the current one): the
   * event, at this object's time; none when that version is the one agreed already. Null: no session.
   */
  async giveConsent(kind: ConsentKind, version: string): Promise<SessionEvent[] | null> {
    if (!this.state.sessionId) return null;
    if (this.state.consent?.[kind]?.version === version) return [];
    const event = consentEvent(kind, version, Date.now());
    this.store([event]);
    return [event];
  }

  /**
   * Stage operations read and write the state in one step, serialized by the object: a context
   * edit checks the version it was based on, and transitions follow from the state they see.
   */
  async updateContext(req: ContextRequest, stages: StageConfig[]): Promise<StageOutcome> {
    const outcome = updateContext(this.state, req, stages);
    if (outcome.events.length) this.store(outcome.events);
    return { ...outcome, state: this.state };
  }

  async completeStage(req: CompleteRequest, stages: StageConfig[]): Promise<StageOutcome> {
    const outcome = completeStage(this.state, req, stages);
    if (outcome.events.length) this.store(outcome.events);
    return { ...outcome, state: this.state };
  }

  /**
   * The session's own limits, checked in the one call the chat and tool routes make here before
   * the provider: its request rate and its token budget. Stores nothing; the route appends the
   * request's messages only once every check has passed. `withState` answers the state too, for a
   * route that needs it in the prompt (stage workflows): one round trip before the provider, not two.
   */
  async admit(
    perMinute: number,
    tokenBudget: number,
    withState = false,
    modelTurn = false,
    turn?: TurnIds,
    consent?: ConsentVersions,
  ): Promise<Admission> {
    return admitState(
      this.state,
      this.rate,
      { perMinute, tokenBudget, withState, modelTurn, turn, consent },
      this.liveReplies(),
    );
  }

  /** The replies this object streams now or finished lately: ids a new message may not take. */
  private liveReplies(): Set<string> {
    return new Set(this.hub.replies.keys());
  }

  /**
   * A takeover step (takeover-ops.ts), serialized here: of two staff members joining at once one
   * gets the conversation. A join stops the replies streaming now (kept, interrupted); the site's
   * index hears of every step at once, not after INDEX_DELAY_MS: the Live page's queue is read there.
   */
  async takeover(op: TakeoverOp): Promise<TakeoverOutcome> {
    const outcome = takeoverStep(this.state, op, Date.now());
    if (outcome.stopReplies) for (const r of this.hub.replies.values()) r.stop();
    if (!outcome.events.length) return outcome;
    this.store(outcome.events);
    await this.pushes.push(this.env, this.state, this.privacy.value).catch(() => this.indexSoon());
    return outcome;
  }

  /**
   * Stores events and answers only the new version: answering the whole state would copy it
   * across the call on every append, a cost that grows with the conversation, for callers that
   * need at most the version.
   */
  async append(events: SessionEvent[], notes: OwnerNote[] = []): Promise<{ version: number }> {
    this.store(events, notes);
    return { version: this.state.version };
  }

  /**
   * What a browser appends (POST /v1/sessions/:id/events), checked against the state and stored in
   * one step, so no other write comes between (client-events.ts): the new version, or the refusal.
   */
  async appendFromClient(events: ClientEvent[]): Promise<{ version: number } | { refused: ClientRefusal }> {
    const outcome = clientEvents(this.state, events, { now: Date.now(), live: this.liveReplies() });
    if ("refused" in outcome) return outcome;
    if (outcome.store.length) this.store(outcome.store);
    return { version: this.state.version };
  }

  /**
   * The one write path. With redaction on, trace steps and owner notes are stored redacted (the
   * transcript keeps the visitor's words for the owner); in keep-nothing mode a message moves the
   * conversation's erasure to the site's minutes after it.
   */
  private store(events: SessionEvent[], notes: readonly OwnerNote[] = []): void {
    // An erased (or never opened) session stores nothing: a reply, a tool's step or a turn's input
    // that ends after the erasure would otherwise leave rows in the emptied object.
    if (!this.state.sessionId && events[0]?.type !== EVENT_TYPES.sessionOpened) return;
    const privacy = this.privacy.value;
    if (privacy.redact) {
      events = redactTraceSteps(events);
      notes = notes.map((n) => ({ ...n, text: redactText(n.text) }));
    }
    if (notes.length) this.notes.add(notes);
    const { state, added } = this.log.append(this.state, events);
    this.state = state;
    this.hub.events(added);
    if (
      privacy.keepMinutes !== null &&
      added.some(({ event: e }) => e.type === EVENT_TYPES.messageAppended || e.type === EVENT_TYPES.sessionOpened)
    ) {
      this.privacy.messageAt(Date.now());
      this.alarms.erasesAt(this.privacy.erasesAt()!);
    }
    this.indexSoon();
    this.webhooksFor(added.map((a) => a.event));
  }

  /** Not awaited: the outbox is one call away, and no receiver is ever waited on by a turn. */
  private webhooksFor(events: SessionEvent[]): void {
    const messages = sessionWebhookMessages(this.state, events);
    if (!messages.length) return;
    const { siteKey } = this.state;
    this.webhooks = this.webhooks.then(() => emitWebhooks(this.env, siteKey, messages)).catch(() => {});
  }

  /** The site's index hears of this session's changes from here, soon after (index-push.ts). */
  private indexSoon(): void {
    if (!this.state.sessionId) return;
    const streaming = [...this.hub.replies.values()].some((r) => !r.ended);
    this.alarms.indexWithin(streaming ? INDEX_WHILE_STREAMING_MS : INDEX_DELAY_MS);
  }

  override async alarm(): Promise<void> {
    const { push } = this.alarms.rang();
    if (await this.eraseIfDue()) return;
    if (push) await this.pushes.push(this.env, this.state, this.privacy.value);
    await this.checkQueue();
    // Not erased: not due yet, or due while a reply streams (then looked at again in a minute).
    const erasesAt = this.privacy.erasesAt();
    if (erasesAt !== null) this.alarms.erasesAt(erasesAt > Date.now() ? erasesAt : Date.now() + 60_000);
  }

  /**
   * Keep nothing: the site's minutes after the last message, the conversation's counts go to the index
   * one last time, then its photos and its whole storage are erased. A reply streaming then is let finish
   * (its end is a message, which moves the time). Answers whether it erased.
   */
  private async eraseIfDue(now = Date.now()): Promise<boolean> {
    const at = this.privacy.erasesAt();
    if (at === null || now < at || !this.state.sessionId) return false;
    if ([...this.hub.replies.values()].some((r) => !r.ended)) return false;
    const { siteKey, sessionId } = this.state;
    await this.pushes.push(this.env, this.state, this.privacy.value);
    await deleteSessionPhotos(this.env, siteKey, sessionId);
    await this.erase(siteKey);
    return true;
  }

  /**
   * A visitor queued for a person is told nobody is coming when no staff member is present any
   * more, the site's hours end or they waited past its maximum (takeover): run by the alarm, so no
   * request has to arrive. `now` is the clock the maximum wait is read against (tests pass a later one).
   */
  async checkQueue(now = Date.now()): Promise<void> {
    if (!queuedRequest(this.state)) return;
    const site = await loadSite(this.env, this.state.siteKey);
    const verdict = site?.takeover.enabled ? await queueVerdict(this.env, site, this.state, now) : null;
    if (!verdict) return;
    // The state is read again in the step: a join that arrived during the awaits above wins.
    if (verdict.unavailable) await this.takeover({ op: "expire", unavailable: verdict.unavailable });
    else this.alarms.queueAgainAt(verdict.next);
  }

  /**
   * Erases the session (its whole storage, the pending index push included) when it belongs to
   * `siteKey`; answers whether there was one. A reply streaming now is stopped first and waited for
   * (its record is stored, then erased with the rest); staff following the conversation and the
   * visitor's other tabs hear `erased`, then their channels close. Callers use eraseSession (erase-session.ts).
   */
  async erase(siteKey: string, by: Eraser = "owner"): Promise<boolean> {
    if (!this.state.sessionId || this.state.siteKey !== siteKey) return false;
    const streaming = [...this.hub.replies.values()].filter((r) => !r.ended);
    for (const r of streaming) r.stop();
    // A provider body that ignores the abort is cancelled by stop() after DRAIN_MS; never wait much longer.
    const waited = Promise.all(streaming.map((r) => r.finished));
    await Promise.race([waited, new Promise((r) => setTimeout(r, ERASE_WAIT_MS))]);
    const { sessionId, agentId } = this.state;
    // What the outbox holds about the conversation goes with it; its endpoints hear of the erasure.
    await webhookOutbox(this.env, siteKey)
      .conversationErased(sessionId, agentId)
      .catch(() => {});
    this.hub.erased(by);
    await this.alarms.clear();
    await this.ctx.storage.deleteAll();
    this.state = emptySession();
    this.pushes.clear();
    this.log.createTables();
    return true;
  }

  /** The env a streamed reply's provider call reads: the object's own (its bindings and secrets). */
  protected providerEnv(): Env {
    return this.env;
  }

  /**
   * Runs a streamed completion here, not in the route: the provider's request then lasts as long
   * as this object, so a reload, a navigation or a lost network loses nothing (reply-runner.ts).
   */
  async streamReply(turn: Turn): Promise<ReplyStart> {
    return runReply(
      {
        env: this.providerEnv(),
        sql: this.ctx.storage.sql,
        hub: this.hub,
        store: (events, notes) => this.store(events, notes),
        admit: (perMinute, tokenBudget) =>
          admitState(this.state, this.rate, { perMinute, tokenBudget, modelTurn: true }),
        liveReplies: () => this.liveReplies(),
        state: () => this.state,
      },
      turn,
    );
  }

  /** An edge tool call by id: run it (the caller then records or releases it), or its first run's answer. */
  async claimTool(callId: string): Promise<ToolClaim> {
    return this.tools.claim(callId);
  }

  /** The run's answer, kept for a repeated id, and its trace step, in one call (nothing once erased). */
  async recordTool(callId: string, output: RecordedTool, events: SessionEvent[]): Promise<void> {
    if (!this.state.sessionId) return;
    this.tools.record(callId, output);
    if (events.length) this.store(events);
  }

  async releaseTool(callId: string): Promise<void> {
    this.tools.release(callId);
  }

  /** Stop from any client: ends the provider's request; false when the reply is not streaming here. */
  async stopReply(replyId: string): Promise<boolean> {
    const reply = this.hub.replies.get(replyId);
    if (!reply || reply.ended) return false;
    reply.stop();
    return true;
  }

  /** Staff's SSE form of the live channel (the console's Live page, where WebSockets are blocked). */
  async follow(after: number): Promise<ReadableStream<Uint8Array>> {
    return this.hub.attachSse({ t: "attach", after }, "staff");
  }

  /**
   * The object's fetch: a visitor's reattachment (follow-request.ts), admitted by the session's rate
   * here rather than in a call of its own, so a storm of reattachments costs one round trip each, and
   * refused while the visitor holds LIVE_LIMITS.visitorStreams open; or a WebSocket upgrade, forwarded
   * by the live routes once the caller is checked (live-upgrade.ts).
   */
  async fetch(request: Request): Promise<Response> {
    const ask = readFollowRequest(request.url);
    if (!ask) return this.hub.accept(request, readUpgrade(request.url));
    const cap = LIVE_LIMITS.visitorStreams;
    if (this.hub.streams("visitor") >= cap) return refusedResponse({ ok: false, reason: "connections", cap });
    const admission = admitState(this.state, this.rate, { perMinute: ask.perMinute, tokenBudget: Infinity });
    if (!admission.ok) return refusedResponse(admission);
    const { after, reply, from, tab } = ask;
    const frame = {
      t: "attach" as const,
      after,
      ...(reply ? { replies: { [reply]: from } } : {}),
      ...(tab ? { tab } : {}),
    };
    return new Response(await this.hub.attachSse(frame, "visitor", reply));
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const stop = await this.hub.frame(ws, message);
    if (stop) await this.stopReply(stop);
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.hub.socketClosed();
    ws.close(code === 1005 ? 1000 : code, "closed");
  }

  /**
   * Stores a visitor's rating of one of this session's assistant replies; answers the event and
   * what the strategy desk needs to read it: the reply and the visitor message it answered.
   */
  async giveFeedback(input: FeedbackInput): Promise<FeedbackOutcome | null> {
    const outcome = feedbackOutcome(this.state, input);
    if (outcome) this.store([outcome.event]);
    return outcome;
  }

  async getState(): Promise<SessionState> {
    return this.state;
  }

  /** The state as the site's owner reads it: the trace with the owner's notes (a provider's own error text). */
  async ownerState(): Promise<SessionState> {
    return { ...this.state, trace: this.notes.withNotes(this.state.trace) };
  }

  /** The state, and the replies streaming now: what a restored page shows and reattaches to. */
  async snapshot(): Promise<{ state: SessionState; streaming: string[] }> {
    const streaming = [...this.hub.replies.values()].filter((r) => !r.ended && r.purpose === "chat").map((r) => r.id);
    return { state: this.state, streaming };
  }

  async getEvents(afterSeq = 0): Promise<LoggedEvent[]> {
    return this.log.after(afterSeq);
  }
}
