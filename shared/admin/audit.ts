import { z } from "zod/mini";

/**
 * The audit trail's wire names: what was done. Entries name ids (a conversation, an account, a key),
 * never content, so they outlive a conversation's erasure.
 */
export const AUDIT_ACTIONS = [
  "sign_in",
  "sign_out",
  "session.refused",
  "invitation.create",
  "invitation.revoke",
  "invitation.accept",
  "account.create",
  "account.role",
  "account.remove",
  "passkey.add",
  "passkey.remove",
  "identity.link",
  "identity.unlink",
  "key.create",
  "key.revoke",
  "secret.rotate",
  "settings.change",
  "agent.create",
  "agent.publish",
  "agent.delete",
  "prompt.label",
  "desk.promote",
  "desk.reject",
  "desk.rollback",
  "takeover.join",
  "takeover.handback",
  "conversation.read",
  "photo.read",
  "trace.read",
  "conversation.export",
  "conversations.export",
  "conversation.delete",
  "visitor.erase",
  "knowledge.delete",
  "audit.export",
  "audit.verify",
  "audit.purge",
  "permission.denied",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ["ok", "refused", "failed"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Who did it: an account, a named admin key, the site's bootstrap admin key, or nobody known. */
export type AuditActorKind = "account" | "key" | "bootstrap" | "anonymous";

/** One entry as stored and read back; `hash` covers every other field and `prev` (the entry before's hash). */
export interface AuditEntry {
  seq: number;
  at: number;
  actorKind: AuditActorKind;
  actorId: string;
  actorName: string;
  action: AuditAction;
  /** The object's id (a conversation, an account, `agent/prompt`), or "". */
  object: string;
  outcome: AuditOutcome;
  /** The error code of a refusal or failure, or "". */
  code: string;
  ip: string;
  userAgent: string;
  prev: string;
  hash: string;
}

/** GET adminAudit's filters: person (actor id or name), action, object, time, and paging by seq. */
export const AuditQuery = z.object({
  who: z.optional(z.string().check(z.maxLength(200))),
  action: z.optional(z.enum(AUDIT_ACTIONS)),
  object: z.optional(z.string().check(z.maxLength(300))),
  from: z.optional(z.string().check(z.regex(/^\d{1,15}$/))),
  to: z.optional(z.string().check(z.regex(/^\d{1,15}$/))),
  before: z.optional(z.string().check(z.regex(/^\d{1,15}$/))),
  limit: z.optional(z.string().check(z.regex(/^\d{1,4}$/))),
  format: z.optional(z.enum(["csv", "json"])),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** GET adminAuditVerify: the chain checked from its start (or the purge's anchor) to its end. */
export interface AuditVerdict {
  ok: boolean;
  checked: number;
  /** The first entry whose hash or link does not match, when one does not. */
  firstBroken?: { seq: number; at: number; reason: "hash" | "link" | "gap" };
}
