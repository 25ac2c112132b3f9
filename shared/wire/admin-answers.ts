import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type {
  InvitationCreated,
  InvitationInfo,
  KeyCreated,
  MeView,
  PasskeyView,
  TeamView,
} from "../admin/accounts-api.ts";
import type { AgentConfig, SiteConfig } from "../config/agent-config.ts";
import type { AuditEntry, AuditVerdict } from "../admin/audit.ts";
import type { BookingSettingsView } from "../config/booking-config.ts";
import type { ConsoleSession } from "../admin/console-session.ts";
import type { ConversationList, Insights } from "../admin/conversation-query.ts";
import type { QueuedRequest, RunRecord, RunSummary } from "../admin/desk-records.ts";
import type { KnowledgeDoc } from "../admin/knowledge-doc.ts";
import type { Eraser } from "../session/live.ts";
import type { McpServerView } from "../config/mcp-config.ts";
import type { McpProbe } from "../admin/mcp-probe.ts";
import type { LabelMove, PromptSummary, PromptVersion } from "../admin/prompt-records.ts";
import type * as ROUTES from "./routes.ts";
import type { SessionState } from "../session/session.ts";
import type { LiveOverview, StaffStepResponse } from "../takeover/takeover-api.ts";
import type { SsoInfo, SsoStarted, SsoView } from "../config/sso-config.ts";
import type { KnowledgeHit } from "../tools/knowledge-search.ts";
import type { WebhookDeliveryView, WebhookEndpointView, WebhookEndpointWithSecret } from "../admin/webhook-api.ts";

/**
 * What the owner's routes answer (the admin key, or the console's cookie), declared once: the worker's
 * handlers return them (`satisfies AdminAnswer<...>`) and the console's client reads them by route,
 * so a field changed on one side fails the other's build. `AdminAnswers` maps method and route
 * pattern (shared/wire/routes.ts) to the answer; `void` is an answer without a body (204).
 */

/** One conversation as its owner reads it (the trace with the owner's notes). */
export interface OwnerSession {
  state: SessionState;
}

/** One erased conversation as the owner's list keeps it: its id, who erased it, when; nothing of its content. */
export interface ErasureRow {
  sessionId: string;
  by: Eraser;
  at: number;
}

/** Where a site's agent comes from: its own entry, a shared `agent:<id>` entry, or the demo's preset. */
export type AgentSource = "site" | "shared" | "preset";

/** An agent in the site's list: its summary, or why it cannot be read. */
export type AgentListing =
  | (Pick<AgentConfig, "id" | "name" | "description" | "model" | "strategy" | "tools"> & {
      stages: number;
      source: AgentSource;
    })
  | { id: string; error: string };

export interface StoredAgent {
  agent: AgentConfig;
  source: AgentSource;
}

/** An agent just written: what visitors get, and within how long every isolate serves it. */
export interface WrittenAgent extends StoredAgent {
  takesEffectWithinMs: number;
}

/** The site's settings as its owner reads them: all but the admin key's digest. */
export interface SiteView {
  site: Omit<SiteConfig, "adminKeySha256">;
  demo: boolean;
  takesEffectWithinMs: number;
}

/** A knowledge document in the list: its fields without the text, the text's length and its start. */
export type KnowledgeSummary = Omit<KnowledgeDoc, "text"> & { chars: number; excerpt: string };

export interface KnowledgeList {
  tenantId: string;
  documents: KnowledgeSummary[];
  takesEffectWithinMs: number;
}

export interface PromptVersions {
  path: string;
  versions: Array<Omit<PromptVersion, "text">>;
  labels: Record<string, number>;
}

export interface PromptDiff {
  path: string;
  from: number;
  to: number;
  diff: string;
}

/** What the chat path sends for an agent at a label, and the version of each part it was put together from. */
export interface SystemPrompt {
  agent: string;
  label: string;
  text: string;
  versions: { system: number; strategies: number; guidance: number };
}

export interface DeskQueue {
  agent: string;
  queue: QueuedRequest[];
  nextRunAt: number | null;
}

/** Staff presence: how many are present, whether the site's hours are now, whether someone can come. */
export interface Presence {
  present: number;
  withinHours: boolean;
  available: boolean;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The next page's `before`, when this page was full. */
  next?: number;
}

export interface AdminAnswers {
  GET: {
    [ROUTES.consoleSession]: ConsoleSession;
    [ROUTES.adminSessions]: ConversationList;
    [ROUTES.adminSession]: OwnerSession;
    [ROUTES.adminErasures]: { site: string; erasures: ErasureRow[] };
    [ROUTES.adminInsights]: Insights;
    [ROUTES.adminTemplates]: { templates: AgentConfig[] };
    [ROUTES.adminAgents]: { agents: AgentListing[] };
    [ROUTES.adminAgent]: StoredAgent;
    [ROUTES.adminAgentDraft]: { agent: AgentConfig };
    [ROUTES.adminSite]: SiteView;
    [ROUTES.adminKnowledge]: KnowledgeList;
    [ROUTES.adminKnowledgeDoc]: { document: KnowledgeDoc };
    [ROUTES.adminPrompts]: { prompts: PromptSummary[] };
    [ROUTES.adminPrompt]: PromptVersions;
    [ROUTES.adminPromptVersion]: PromptVersion;
    [ROUTES.adminPromptDiff]: PromptDiff;
    [ROUTES.adminPromptHistory]: { path: string; moves: LabelMove[] };
    [ROUTES.adminSystemPrompt]: SystemPrompt;
    [ROUTES.adminDeskQueue]: DeskQueue;
    [ROUTES.adminDeskRuns]: { agent: string; runs: RunSummary[] };
    [ROUTES.adminDeskRunDetail]: RunRecord;
    [ROUTES.adminLive]: LiveOverview;
    [ROUTES.adminAccounts]: TeamView;
    [ROUTES.adminMe]: MeView;
    [ROUTES.adminAudit]: AuditPage;
    [ROUTES.adminAuditVerify]: AuditVerdict;
    [ROUTES.adminWebhooks]: { endpoints: WebhookEndpointView[] };
    [ROUTES.adminWebhookDeliveries]: { deliveries: WebhookDeliveryView[] };
    [ROUTES.adminSso]: SsoView;
    [ROUTES.adminBooking]: BookingSettingsView;
    [ROUTES.adminMcpServers]: { servers: McpServerView[] };
    [ROUTES.adminMcpTools]: { servers: McpProbe[] };
    [ROUTES.consoleSso]: SsoInfo;
  };
  POST: {
    [ROUTES.consoleSession]: ConsoleSession;
    [ROUTES.consolePasskeyOptions]: PublicKeyCredentialRequestOptionsJSON;
    [ROUTES.consolePasskey]: ConsoleSession;
    [ROUTES.consoleInvitation]: InvitationInfo;
    [ROUTES.consoleInvitationOptions]: PublicKeyCredentialCreationOptionsJSON;
    [ROUTES.consoleInvitationAccept]: ConsoleSession;
    [ROUTES.adminAgents]: WrittenAgent;
    [ROUTES.adminAgentDraftPublish]: WrittenAgent;
    [ROUTES.adminKnowledge]: { document: KnowledgeDoc };
    [ROUTES.adminKnowledgeSearch]: { query: string; hits: KnowledgeHit[] };
    [ROUTES.adminPromptVersions]: PromptVersion;
    [ROUTES.adminDeskNotes]: { request: QueuedRequest; runAt: number };
    [ROUTES.adminDeskRun]: { runAt: number };
    [ROUTES.adminDeskPromote]: RunRecord;
    [ROUTES.adminDeskReject]: RunRecord;
    [ROUTES.adminDeskRollback]: RunRecord;
    [ROUTES.adminLivePresence]: Presence;
    [ROUTES.adminLiveJoin]: StaffStepResponse;
    [ROUTES.adminLiveMessages]: StaffStepResponse;
    [ROUTES.adminLiveHandback]: StaffStepResponse;
    [ROUTES.adminInvitations]: InvitationCreated;
    [ROUTES.adminKeys]: KeyCreated;
    [ROUTES.adminMyPasskeyOptions]: PublicKeyCredentialCreationOptionsJSON;
    [ROUTES.adminMyPasskeys]: { passkeys: PasskeyView[] };
    [ROUTES.adminWebhooks]: { endpoint: WebhookEndpointWithSecret };
    [ROUTES.adminWebhookRotate]: { endpoint: WebhookEndpointWithSecret };
    [ROUTES.adminWebhookTest]: { delivery: WebhookDeliveryView };
    [ROUTES.adminWebhookResend]: { delivery: WebhookDeliveryView };
    [ROUTES.adminMcpServerTest]: McpProbe;
    [ROUTES.consoleSsoStart]: SsoStarted;
    [ROUTES.consoleSsoCallback]: ConsoleSession;
  };
  PUT: {
    [ROUTES.adminAgent]: WrittenAgent;
    [ROUTES.adminAgentDraft]: { agent: AgentConfig };
    [ROUTES.adminSite]: SiteView;
    [ROUTES.adminKnowledgeDoc]: { document: KnowledgeDoc };
    [ROUTES.adminPromptLabel]: LabelMove;
    [ROUTES.adminWebhook]: { endpoint: WebhookEndpointView };
    [ROUTES.adminSso]: SsoView;
    [ROUTES.adminBooking]: BookingSettingsView;
    [ROUTES.adminMcpServers]: { servers: McpServerView[] };
  };
  PATCH: {
    [ROUTES.adminAccount]: { ok: true; sessionsEnded: number };
  };
  DELETE: {
    [ROUTES.consoleSession]: void;
    [ROUTES.adminSession]: void;
    [ROUTES.adminAgent]: { deleted: string };
    [ROUTES.adminKnowledgeDoc]: { deleted: string };
    [ROUTES.adminLivePresence]: void;
    [ROUTES.adminAccount]: void;
    [ROUTES.adminInvitation]: void;
    [ROUTES.adminKeyRevoke]: void;
    [ROUTES.adminMyPasskey]: void;
    [ROUTES.adminAccountIdentity]: void;
    [ROUTES.adminMyIdentity]: void;
    [ROUTES.adminWebhook]: void;
    [ROUTES.adminSso]: void;
    [ROUTES.adminBooking]: BookingSettingsView;
  };
}

export type AdminMethod = keyof AdminAnswers;
/** A route the owner's client calls with `method`. */
export type AdminRoute<M extends AdminMethod> = keyof AdminAnswers[M] & string;
/** What `method route` answers: `AdminAnswer<"GET", typeof ROUTES.adminSite>`. */
export type AdminAnswer<M extends AdminMethod, R extends AdminRoute<M>> = AdminAnswers[M][R];
