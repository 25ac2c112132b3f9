import { z } from "zod/mini";
import { ConversationQuery } from "../../shared/admin/conversation-query.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { json, op, type RouteDoc, type RouteDocs } from "./route-doc.ts";
import * as A from "./admin-answers.ts";

const version = z.optional(z.string().check(z.describe("A version number or a label's name")));
const label = z.optional(z.string().check(z.describe("A label's name")));
const notFound = [[404, "not_found"]] as const;
const unknownAgent = [[404, "unknown_agent"]] as const;
/** The prompt registry's refusals, and its store failing. */
const registry = [
  [400, "validation_failed"],
  [404, "not_found"],
  [409, "conflict"],
  [503, "upstream_unreachable"],
] as const;
const takeover = [
  [403, "takeover_disabled"],
  [404, "not_found"],
  [409, "already_taken"],
  [409, "not_taken_over"],
] as const;

const admin = (summary: string, answers: RouteDoc["answers"], more: Partial<RouteDoc> = {}): RouteDoc => ({
  tag: "admin",
  summary,
  answers,
  ...more,
});
const file = { description: "The file (attachment)", media: "text/csv", alsoMedia: ["application/json"] };
const noBody = { description: "Done", media: "none" };

/** The site owner's routes: the admin key header with `?site=`, or the console's cookie. */
export const ADMIN_ROUTES: RouteDocs = {
  [op("get", ROUTES.adminSessions)]: admin(
    "The site's conversations, newest first, filtered and searched",
    { 200: json("A page of the list", A.ConversationListAnswer) },
    { query: ConversationQuery, errors: [[400, "validation_failed"]] },
  ),
  [op("get", ROUTES.adminSessionsExport)]: admin(
    "The filtered conversation list as a file",
    { 200: file },
    { query: ConversationQuery, errors: [[400, "validation_failed"]] },
  ),
  [op("get", ROUTES.adminSession)]: admin(
    "One conversation as its owner reads it",
    { 200: json("Its state", A.OwnerStateAnswer) },
    { errors: notFound },
  ),
  [op("delete", ROUTES.adminSession)]: admin(
    "Erase a conversation: its events, its index row, its photos",
    { 204: noBody },
    { errors: notFound },
  ),
  [op("get", ROUTES.adminSessionExport)]: admin(
    "One conversation as a file",
    { 200: { ...file, media: "application/json", alsoMedia: ["text/csv"] } },
    { query: z.object({ format: z.optional(z.enum(["json", "csv"])) }), errors: notFound },
  ),
  [op("get", ROUTES.adminTrace)]: admin(
    "One conversation's trace, with the owner's notes",
    { 200: json("The trace", A.OwnerTraceAnswer) },
    { errors: notFound },
  ),
  [op("get", ROUTES.adminPhoto)]: admin(
    "A visitor's photo",
    { 200: { description: "The photo's bytes (no-store)", media: "image/*" } },
    { errors: notFound },
  ),
  [op("get", ROUTES.adminInsights)]: admin(
    "Per day and agent: conversations, messages, tokens, first-token times, tools, feedback",
    { 200: json("The insights", A.InsightsAnswer) },
    { query: ConversationQuery, errors: [[400, "validation_failed"]] },
  ),
  [op("get", ROUTES.adminPrompts)]: admin(
    "The site's prompts",
    { 200: json("Each prompt", A.PromptListAnswer) },
    {
      errors: registry,
    },
  ),
  [op("get", ROUTES.adminPrompt)]: admin(
    "A prompt's versions and labels",
    { 200: json("Versions", A.PromptVersionsAnswer) },
    { errors: registry },
  ),
  [op("get", ROUTES.adminPromptVersion)]: admin(
    "One version of a prompt, by number or label",
    { 200: json("The version", A.PromptVersionAnswer) },
    { errors: registry },
  ),
  [op("get", ROUTES.adminPromptDiff)]: admin(
    "A unified diff between two versions",
    { 200: json("The diff", A.PromptDiffAnswer) },
    { query: z.object({ from: version, to: version }), errors: registry },
  ),
  [op("post", ROUTES.adminPromptVersions)]: admin(
    "Save a new version",
    { 201: json("The saved version", A.PromptVersionAnswer) },
    { errors: registry },
  ),
  [op("put", ROUTES.adminPromptLabel)]: admin(
    "Move a label to a version (or remove it)",
    { 200: json("The move", A.LabelMoveAnswer) },
    { errors: registry },
  ),
  [op("get", ROUTES.adminPromptHistory)]: admin(
    "A prompt's label moves",
    { 200: json("The moves", A.LabelHistoryAnswer) },
    { query: z.object({ label }), errors: registry },
  ),
  [op("get", ROUTES.adminSystemPrompt)]: admin(
    "What the chat sends as an agent's system prompt at a label (production by default)",
    { 200: json("The prompt", A.SystemPromptAnswer) },
    { query: z.object({ label }), errors: [...registry, ...unknownAgent] },
  ),
  [op("get", ROUTES.adminDeskQueue)]: admin(
    "The strategy desk's waiting requests",
    { 200: json("The queue", A.DeskQueueAnswer) },
    { errors: unknownAgent },
  ),
  [op("get", ROUTES.adminDeskRuns)]: admin(
    "The desk's runs, newest first",
    { 200: json("The runs", A.DeskRunsAnswer) },
    {
      query: z.object({ limit: z.optional(z.string().check(z.describe("1 to 100, default 20"))) }),
      errors: unknownAgent,
    },
  ),
  [op("get", ROUTES.adminDeskRunDetail)]: admin(
    "One run, with its requests and trace",
    { 200: json("The run", A.DeskRunAnswer) },
    { errors: [...unknownAgent, ...notFound] },
  ),
  [op("post", ROUTES.adminDeskNotes)]: admin(
    "The owner's note to the desk (queued for its next run)",
    { 202: json("The queued request", A.DeskNoteAnswer) },
    { errors: unknownAgent },
  ),
  [op("post", ROUTES.adminDeskRun)]: admin(
    "Run the desk now",
    { 202: json("When it runs", A.DeskRunNowAnswer) },
    { errors: unknownAgent },
  ),
  [op("post", ROUTES.adminDeskPromote)]: admin(
    "Promote a run's candidate to production",
    { 200: json("The run", A.DeskRunAnswer) },
    { errors: [...registry, ...unknownAgent] },
  ),
  [op("post", ROUTES.adminDeskReject)]: admin(
    "Reject a run's candidate",
    { 200: json("The run", A.DeskRunAnswer) },
    { errors: [...registry, ...unknownAgent] },
  ),
  [op("post", ROUTES.adminDeskRollback)]: admin(
    "Undo a promotion",
    { 200: json("The run", A.DeskRunAnswer) },
    { errors: [...registry, ...unknownAgent] },
  ),
  [op("get", ROUTES.adminSite)]: admin("The site's settings", { 200: json("The settings", A.SiteAnswer) }),
  [op("put", ROUTES.adminSite)]: admin(
    "Change the site's settings",
    { 200: json("The settings", A.SiteAnswer) },
    {
      errors: [[404, "unknown_site"]],
    },
  ),
  [op("get", ROUTES.adminTemplates)]: admin("Agent templates", { 200: json("The templates", A.TemplatesAnswer) }),
  [op("get", ROUTES.adminAgents)]: admin(
    "The site's agents",
    { 200: json("A summary of each", A.AgentsAnswer) },
    {
      errors: [[404, "unknown_site"]],
    },
  ),
  [op("post", ROUTES.adminAgents)]: admin(
    "Create an agent",
    { 201: json("The agent", A.AgentAnswer) },
    {
      errors: [
        [404, "unknown_site"],
        [409, "conflict"],
      ],
    },
  ),
  [op("get", ROUTES.adminAgent)]: admin(
    "An agent's config and where it comes from",
    { 200: json("The agent", A.AgentAnswer) },
    { errors: [[404, "unknown_site"], ...unknownAgent] },
  ),
  [op("put", ROUTES.adminAgent)]: admin(
    "Replace an agent's config",
    { 200: json("The agent", A.AgentAnswer) },
    {
      errors: [[400, "validation_failed"], [404, "unknown_site"], ...unknownAgent],
    },
  ),
  [op("delete", ROUTES.adminAgent)]: admin(
    "Remove an agent from the site",
    { 200: json("Its id", A.DeletedAnswer) },
    {
      errors: [[404, "unknown_site"], ...unknownAgent],
    },
  ),
  [op("get", ROUTES.adminAgentDraft)]: admin(
    "An agent's saved draft",
    { 200: json("The draft", A.DraftAnswer) },
    {
      errors: [...notFound, ...unknownAgent],
    },
  ),
  [op("put", ROUTES.adminAgentDraft)]: admin(
    "Save an agent's draft",
    { 200: json("The draft", A.DraftAnswer) },
    {
      errors: unknownAgent,
    },
  ),
  [op("post", ROUTES.adminAgentDraftPublish)]: admin(
    "Publish the draft to visitors",
    { 200: json("The published agent", A.AgentAnswer) },
    { errors: [...notFound, ...unknownAgent] },
  ),
  [op("get", ROUTES.adminKnowledge)]: admin("The site's documents", {
    200: json("Their summaries", A.KnowledgeListAnswer),
  }),
  [op("post", ROUTES.adminKnowledge)]: admin(
    "Add a document",
    { 201: json("The document", A.KnowledgeDocAnswer) },
    {
      errors: [[409, "conflict"]],
    },
  ),
  [op("get", ROUTES.adminKnowledgeDoc)]: admin(
    "One document",
    { 200: json("The document", A.KnowledgeDocAnswer) },
    {
      errors: notFound,
    },
  ),
  [op("put", ROUTES.adminKnowledgeDoc)]: admin(
    "Replace a document",
    { 200: json("The document", A.KnowledgeDocAnswer) },
    { errors: notFound },
  ),
  [op("delete", ROUTES.adminKnowledgeDoc)]: admin(
    "Remove a document",
    { 200: json("Its id", A.DeletedAnswer) },
    {
      errors: notFound,
    },
  ),
  [op("post", ROUTES.adminKnowledgeSearch)]: admin("What knowledge_search retrieves for a query", {
    200: json("The ranked passages", A.KnowledgeSearchAnswer),
  }),
  [op("get", ROUTES.adminLive)]: admin("Takeover: the queue, the conversations staff handle, who is present", {
    200: json("The overview", A.LiveOverviewAnswer),
  }),
  [op("post", ROUTES.adminLivePresence)]: admin(
    "A staff member's heartbeat on the Live page",
    { 200: json("Presence", A.PresenceAnswer) },
    { errors: [[403, "takeover_disabled"]] },
  ),
  [op("delete", ROUTES.adminLivePresence)]: admin("A staff member leaves the Live page", { 204: noBody }),
  [op("get", ROUTES.adminLiveChannel)]: admin(
    "A conversation's live channel for staff: a WebSocket (from the console's origin) or server-sent events",
    {
      101: { description: "Switching to the WebSocket protocol", media: "none" },
      200: { description: "The channel's frames (`?after=<seq>`)", media: "text/event-stream" },
    },
    {
      query: z.object({ after: z.optional(z.string().check(z.describe("A sequence number (0 or more)"))) }),
      errors: [[400, "validation_failed"], [403, "forbidden_origin"], ...notFound],
    },
  ),
  [op("post", ROUTES.adminLiveJoin)]: admin(
    "Take the conversation over",
    { 200: json("The events", A.StaffStepAnswer) },
    { errors: takeover },
  ),
  [op("post", ROUTES.adminLiveMessages)]: admin(
    "A staff member's message",
    { 201: json("The events", A.StaffStepAnswer) },
    { errors: takeover },
  ),
  [op("post", ROUTES.adminLiveHandback)]: admin(
    "Give the conversation back to the agent",
    { 200: json("The events", A.StaffStepAnswer) },
    { errors: takeover },
  ),
};
