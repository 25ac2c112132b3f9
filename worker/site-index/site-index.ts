import { DurableObject } from "cloudflare:workers";
import type { ConversationQuery, InsightRow } from "../../shared/admin/conversation-query.ts";
import type { SessionStep, SessionSummary } from "../../shared/session/session-summary.ts";
import type { Env } from "../env.ts";
import { loadSite } from "../config/config-store.ts";
import { eraseSessionData } from "../session/erase-session.ts";
import { SessionIndex } from "./session-index.ts";
import { LiveList } from "./live-list.ts";
import { StaffPresence } from "./staff-presence.ts";
import { UsedSignInLinks } from "./used-sign-in-links.ts";
import type { ErasureRow } from "../../shared/wire/admin-answers.ts";
import { ErasureList } from "./erasure-list.ts";
import { SlotClaims } from "./slot-claims.ts";
import type { Eraser } from "../../shared/session/live.ts";
import type { LiveConversation, QueuedConversation } from "../../shared/takeover/takeover-api.ts";

const DAY_MS = 86_400_000;
/** Sessions erased per alarm; a longer backlog continues a minute later. */
const PURGE_BATCH = 50;

/**
 * One per site: the owner's side of the site, in SQLite. It holds the index of the site's
 * conversations (a summary row each, pushed by the session's own object after its turns, so
 * listing and filtering open no session). Its alarm purges conversations past the site's retention.
 * The console's sessions live in the site's SiteAccounts object, with the accounts they belong to.
 */
export class SiteIndex extends DurableObject<Env> {
  private readonly sessions: SessionIndex;
  private purgeScheduled = false;
  /** Takeover: the Live page's queue and live conversations, and the staff on that page. */
  private readonly liveList: LiveList;
  private readonly staff: StaffPresence;
  private readonly usedLinks: UsedSignInLinks;
  /** Conversations their visitors erased: the id and when, for the owner (erasure-list.ts). */
  private readonly erasures: ErasureList;
  /** Calendar slots being booked now, one confirmation at a time (slot-claims.ts). */
  private readonly slots: SlotClaims;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sessions = new SessionIndex(ctx.storage.sql);
    this.liveList = new LiveList(ctx.storage.sql);
    this.staff = new StaffPresence(ctx.storage.sql);
    this.usedLinks = new UsedSignInLinks(ctx.storage.sql);
    this.erasures = new ErasureList(ctx.storage.sql);
    this.slots = new SlotClaims(ctx.storage.sql);
  }

  /** A staff member's Live page is open (its heartbeat); answers how many are present now. */
  async staffBeat(id: string, name: string): Promise<number> {
    const now = Date.now();
    this.staff.beat(id, name, now);
    return this.staff.present(now);
  }

  async staffLeave(id: string): Promise<void> {
    this.staff.leave(id);
  }

  async staffIsPresent(id: string): Promise<boolean> {
    return this.staff.isPresent(id, Date.now());
  }

  async staffPresent(): Promise<number> {
    return this.staff.present(Date.now());
  }

  async liveOverview(): Promise<{
    now: number;
    queue: QueuedConversation[];
    live: LiveConversation[];
    present: number;
  }> {
    const now = Date.now();
    return { now, queue: this.liveList.queue(now), live: this.liveList.live(now), present: this.staff.present(now) };
  }

  /** A one-time console sign-in link is used: true the first time only (console/sign-in-link.ts). */
  async claimSignInLink(digest: string, expiresAt: number): Promise<boolean> {
    return this.usedLinks.claim(digest, expiresAt, Date.now());
  }

  /** Claims a calendar slot for one booking (`holder`: its idempotency key); answers who holds it now. */
  async claimSlot(slot: string, holder: string, ttlMs: number): Promise<string> {
    return this.slots.claim(slot, holder, ttlMs, Date.now());
  }

  async releaseSlot(slot: string, holder: string): Promise<void> {
    this.slots.release(slot, holder);
  }

  /** A session's summary and steps, pushed by its SessionRoom (replaces what was there). */
  async record(siteKey: string, summary: SessionSummary, steps: SessionStep[]): Promise<void> {
    this.sessions.upsert(summary, steps);
    this.liveList.upsert(summary);
    if (!this.purgeScheduled) {
      this.purgeScheduled = true;
      await this.ctx.storage.put("siteKey", siteKey);
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    }
  }

  async list(q: ConversationQuery, limit: number): Promise<SessionSummary[]> {
    return this.sessions.list(q, limit);
  }

  async has(sessionId: string): Promise<boolean> {
    return this.sessions.has(sessionId);
  }

  /** An erasure the owner can see (the id, who, when): session/visitor-erasure.ts. */
  async noteErasure(sessionId: string, by: Eraser, at: number): Promise<void> {
    this.erasures.note(sessionId, by, at);
  }

  async listErasures(): Promise<ErasureRow[]> {
    return this.erasures.list();
  }

  async forget(sessionId: string): Promise<boolean> {
    this.liveList.forget(sessionId);
    return this.sessions.forget(sessionId);
  }

  /** Rows per day and agent, and per day across the agents asked for (agent `*`). */
  async insights(from: number, to: number, agent?: string): Promise<{ rows: InsightRow[]; days: InsightRow[] }> {
    return {
      rows: this.sessions.insights(from, to, agent, true),
      days: this.sessions.insights(from, to, agent, false),
    };
  }

  /**
   * The retention purge: sessions idle longer than the site's `retentionDays` are erased (their
   * events, their index rows, and what eraseSessionData erases besides). It runs again when the
   * next session will pass the limit, and at least daily (so a changed setting is read within a day).
   */
  override async alarm(): Promise<void> {
    const siteKey = await this.ctx.storage.get<string>("siteKey");
    const site = siteKey ? await loadSite(this.env, siteKey) : null;
    if (!siteKey || !site) return;
    const now = Date.now();
    const keepMs = site.retentionDays * DAY_MS;
    const due = this.sessions.idleSince(now - keepMs, PURGE_BATCH);
    for (const sid of due) {
      await eraseSessionData(this.env, siteKey, sid, "retention");
      this.sessions.forget(sid);
      this.liveList.forget(sid);
    }
    const [oldest] = this.sessions.idleSince(Number.MAX_SAFE_INTEGER, 1);
    const nextDue = oldest ? this.sessions.lastActivity(oldest) + keepMs : now + DAY_MS;
    const next = due.length === PURGE_BATCH ? now + 60_000 : Math.min(Math.max(nextDue, now + 60_000), now + DAY_MS);
    await this.ctx.storage.setAlarm(next);
  }
}
