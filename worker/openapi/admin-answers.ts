import { z } from "zod/mini";
import type {
  DeskQueue,
  KnowledgeList,
  Presence,
  PromptDiff,
  PromptVersions,
  SiteView,
  SystemPrompt,
} from "../../shared/wire/admin-answers.ts";
import { AgentConfig } from "../../shared/config/agent-config.ts";
import type { ConversationList, InsightRow, Insights } from "../../shared/admin/conversation-query.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import type { LiveOverview, StaffStepResponse } from "../../shared/takeover/takeover-api.ts";
import type { LabelMove, PromptSummary, PromptVersion } from "../../shared/admin/prompt-records.ts";
import { keysOf, object, objects } from "./answer-schema.ts";

/** What the site owner's calls answer (with the admin key or the console's cookie). */

const Handler = object("Handler: who answers, the agent or a person from the staff");

export const SessionSummaryAnswer = keysOf<SessionSummary>()(
  z.object({
    sessionId: z.string(),
    agentId: z.string(),
    locale: z.string(),
    openedAt: z.number(),
    lastActivityAt: z.number(),
    messages: z.number(),
    tokens: z.number(),
    feedbackUp: z.number(),
    feedbackDown: z.number(),
    advice: z.number(),
    escalated: z.boolean(),
    interrupted: z.boolean(),
    quickAnswers: z.number(),
    reactAnswers: z.number(),
    handledBy: z.enum(["agent", "human"]),
    firstText: z.string(),
    handler: z.optional(Handler),
    personRequest: z.optional(z.nullable(object("PersonRequest: the visitor's request for a person"))),
  }),
);

export const ConversationListAnswer = keysOf<ConversationList>()(
  z.object({
    site: z.string(),
    agents: z.array(z.string()),
    sessions: z.array(SessionSummaryAnswer),
    next: z.optional(z.number().check(z.describe("The next page's `before`"))),
    tokensToday: z.object({ spent: z.number(), budget: z.number() }),
  }),
);

const InsightRowAnswer = keysOf<InsightRow>()(
  z.object({
    day: z.string(),
    agent: z.string(),
    conversations: z.number(),
    messages: z.number(),
    tokens: z.number(),
    answers: z.number(),
    quickAnswers: z.number(),
    ttftP50: z.nullable(z.number()),
    ttftP95: z.nullable(z.number()),
    toolCalls: z.number(),
    toolFailures: z.number(),
    feedbackUp: z.number(),
    feedbackDown: z.number(),
  }),
);

export const InsightsAnswer = keysOf<Insights>()(
  z.object({
    site: z.string(),
    from: z.number(),
    to: z.number(),
    budgetPerDay: z.number(),
    agents: z.array(z.string()),
    rows: z.array(InsightRowAnswer),
    days: z.array(InsightRowAnswer),
  }),
);

export const OwnerStateAnswer = z.object({ state: object("SessionState, with the trace's owner notes") });

export const OwnerTraceAnswer = z.object({
  sessionId: z.string(),
  agentId: z.string(),
  usage: object("Provider tokens of the session"),
  trace: objects("A trace step, with the owner's notes"),
});

const Version = keysOf<PromptVersion>()(
  z.object({
    path: z.string(),
    version: z.number(),
    text: z.string(),
    variables: z.array(z.string()),
    author: z.string(),
    parent: z.nullable(z.number()),
    note: z.string(),
    at: z.number(),
  }),
);
const Labels = z.record(z.string(), z.number());

export const PromptListAnswer = z.object({
  prompts: z.array(
    keysOf<PromptSummary>()(z.object({ path: z.string(), latest: z.number(), updatedAt: z.number(), labels: Labels })),
  ),
});
export const PromptVersionsAnswer = keysOf<PromptVersions>()(
  z.object({
    path: z.string(),
    versions: z.array(z.omit(Version, { text: true })),
    labels: Labels,
  }),
);
export const PromptVersionAnswer = Version;
export const PromptDiffAnswer = keysOf<PromptDiff>()(
  z.object({ path: z.string(), from: z.number(), to: z.number(), diff: z.string() }),
);

export const LabelMoveAnswer = keysOf<LabelMove>()(
  z.object({
    seq: z.number(),
    path: z.string(),
    label: z.string(),
    from: z.nullable(z.number()),
    to: z.nullable(z.number()),
    by: z.string(),
    why: z.string(),
    at: z.number(),
  }),
);
export const LabelHistoryAnswer = z.object({ path: z.string(), moves: z.array(LabelMoveAnswer) });
export const SystemPromptAnswer = keysOf<SystemPrompt>()(
  z.object({
    agent: z.string(),
    label: z.string(),
    text: z.string(),
    versions: object("The prompt versions the text was put together from"),
  }),
);

export const DeskQueueAnswer = keysOf<DeskQueue>()(
  z.object({
    agent: z.string(),
    queue: objects("A request waiting for the desk's next run"),
    nextRunAt: z.nullable(z.number()),
  }),
);
export const DeskRunsAnswer = z.object({ agent: z.string(), runs: objects("RunRecord, without trace and requests") });
export const DeskRunAnswer = object("RunRecord (shared/admin/desk-records.ts)");
export const DeskNoteAnswer = z.object({ request: object("The queued request"), runAt: z.nullable(z.number()) });
export const DeskRunNowAnswer = z.object({ runAt: z.number() });

export const SiteAnswer = keysOf<SiteView>()(
  z.object({
    site: object("SiteConfig (shared/config/agent-config.ts) without the admin key's digest"),
    demo: z.boolean(),
    takesEffectWithinMs: z.number(),
  }),
);

export const TemplatesAnswer = z.object({ templates: z.array(AgentConfig) });
export const AgentsAnswer = z.object({ agents: objects("An agent's summary (or the error reading it)") });
export const AgentAnswer = z.object({
  agent: AgentConfig,
  source: z.enum(["site", "shared", "preset"]),
  takesEffectWithinMs: z.optional(z.number()),
});
export const DraftAnswer = z.object({ agent: AgentConfig });
export const DeletedAnswer = z.object({ deleted: z.string() });

export const KnowledgeListAnswer = keysOf<KnowledgeList>()(
  z.object({
    tenantId: z.string(),
    documents: objects("A document's summary"),
    takesEffectWithinMs: z.number(),
  }),
);
export const KnowledgeDocAnswer = z.object({ document: object("KnowledgeDoc (shared/admin/knowledge-doc.ts)") });
export const KnowledgeSearchAnswer = z.object({ query: z.string(), hits: objects("A ranked passage") });

export const LiveOverviewAnswer = keysOf<LiveOverview>()(
  z.object({
    now: z.number(),
    queue: objects("QueuedConversation"),
    live: objects("LiveConversation"),
    staff: object("Staff present, within hours, available, enabled"),
  }),
);
export const PresenceAnswer = keysOf<Presence>()(
  z.object({ present: z.number(), withinHours: z.boolean(), available: z.boolean() }),
);
export const StaffStepAnswer = keysOf<StaffStepResponse>()(
  z.object({ events: objects("SessionEvent"), handler: Handler }),
);
