import type { Context } from "hono";
import type { AuditAction, AuditActorKind, AuditEntry, AuditOutcome } from "../../shared/admin/audit.ts";
import type { Env } from "../env.ts";
import type { Actor } from "../accounts/actor.ts";
import { siteAccounts } from "../objects.ts";

/** What a caller says of an audit entry; the worker adds the time, and the chain its seq and hashes. */
export interface AuditInput {
  /** Who: an account, a named key, the bootstrap key, or nobody known (a refused sign-in). */
  actor: { kind: AuditActorKind; id: string; name: string };
  action: AuditAction;
  /** The object's id (a conversation's, an account's): ids only, never what a conversation says. */
  object?: string;
  outcome?: AuditOutcome;
  /** The error code of a refusal. */
  code?: string;
  /** From where: the client's IP and user agent, when there was a request. */
  ip?: string;
  userAgent?: string;
}

const clip = (s: string | undefined, n: number) => (s ?? "").slice(0, n);

/**
 * Records one entry in the site's audit trail (its SiteAccounts object: append-only, hash-chained,
 * kept for the site's `auditRetentionDays`). Any feature that acts on a site's data calls this, e.g.
 * the erasure of a visitor's data:
 *
 *   await recordAudit(env, siteKey, { actor, action: "visitor.erase", object: sessionId });
 *
 * Answers the stored entry. It waits for the write: an action worth auditing is not done until it is recorded.
 */
export async function recordAudit(env: Env, siteKey: string, input: AuditInput): Promise<AuditEntry> {
  return siteAccounts(env, siteKey).audit(
    {
      at: Date.now(),
      actorKind: input.actor.kind,
      actorId: clip(input.actor.id, 100),
      actorName: clip(input.actor.name, 100),
      action: input.action,
      object: clip(input.object, 300),
      outcome: input.outcome ?? "ok",
      code: clip(input.code, 60),
      ip: clip(input.ip, 64),
      userAgent: clip(input.userAgent, 300),
    },
    siteKey,
  );
}

export const ANONYMOUS = { kind: "anonymous", id: "", name: "" } as const;

export const actorRef = (a: Actor | null | undefined): AuditInput["actor"] =>
  a ? { kind: a.kind, id: a.id, name: a.name } : ANONYMOUS;

/** The request's origin for an entry: the client's IP (as Cloudflare gives it) and user agent. */
export const fromRequest = (c: Pick<Context, "req">) => ({
  ip: c.req.header("cf-connecting-ip") ?? "",
  userAgent: c.req.header("user-agent") ?? "",
});

/** An entry for this request: its origin filled in. */
export function auditRequest(
  c: Pick<Context<{ Bindings: Env }>, "req" | "env">,
  siteKey: string,
  input: Omit<AuditInput, "ip" | "userAgent">,
): Promise<AuditEntry> {
  return recordAudit(c.env, siteKey, { ...input, ...fromRequest(c) });
}
