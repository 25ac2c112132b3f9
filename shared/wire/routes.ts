/**
 * Every route the worker serves, declared once and imported as one table:
 * `import * as ROUTES from "shared/wire/routes.ts"`. The worker's route declarations use these patterns
 * (Hono infers the parameters from the literal), the widget and tests build URLs from them with
 * `routePath` (route-path.ts). A path written by hand elsewhere is a route that can drift. Each
 * route is an export of its own, so a bundle carries only the routes it uses (the widget none of
 * the admin routes).
 */
export const health = "/v1/health";
/** The API's contract: an OpenAPI 3.1 document of every route below (worker/openapi/). */
export const openapi = "/v1/openapi.json";
export const sessions = "/v1/sessions";
/** GET: the session (a restored page); DELETE: the visitor erases the conversation with its token. */
export const session = "/v1/sessions/:id";
// The visitor's consent and their copy of the conversation: only the widget's lazy chunks call them.
export { sessionConsent, sessionDownload } from "./privacy-routes.ts";
export const sessionEvents = "/v1/sessions/:id/events";
/** A visitor's thumbs up or down on a reply (a thumbs-down with a comment asks the strategy desk). */
export const sessionFeedback = "/v1/sessions/:id/feedback";
/** A visitor's photo upload (raw image bytes), and one photo, read with the session's token. */
export const sessionPhotos = "/v1/sessions/:id/photos";
export const sessionPhoto = "/v1/sessions/:id/photos/:photoId";
/** The session's live channel: a WebSocket, or SSE where WebSockets are blocked (shared/session/live.ts). */
export const live = "/v1/sessions/:id/live";
/** Stops a streamed reply from any tab, also one the page reattached to after a reload. */
export const replyStop = "/v1/sessions/:id/replies/:replyId/stop";
/** Takeover (shared/takeover/takeover-api.ts): the visitor asks for a person from the site's staff. */
export const sessionPerson = "/v1/sessions/:id/person";
/** The visitor's message while a person handles the conversation (the chat route refuses a model turn then). */
export const sessionMessages = "/v1/sessions/:id/messages";
/** The visitor leaves a way to be contacted when nobody was available. */
export const sessionContact = "/v1/sessions/:id/contact";
export const sessionContext = "/v1/sessions/:id/context";
export const stageComplete = "/v1/sessions/:id/stages/:stageId/complete";
export const action = "/v1/sessions/:id/actions/:cardId";
export const trace = "/v1/sessions/:id/trace";
export const chat = "/v1/chat/completions";
export const tool = "/v1/tools/:name";
export const adminSessions = "/v1/admin/sessions";
export const adminSession = "/v1/admin/sessions/:id";
export const adminPhoto = "/v1/admin/sessions/:id/photos/:photoId";
export const adminTrace = "/v1/admin/sessions/:id/trace";
/** One conversation as a file (`?format=json|csv`): transcript, advice, feedback, trace. */
export const adminSessionExport = "/v1/admin/sessions/:id/export";
/** The filtered conversation list as a file (`?format=csv|json` and the list's filters). */
export const adminSessionsExport = "/v1/admin/exports/sessions";
/** Conversations erased by their visitors: the id and when, nothing of their content. */
export const adminErasures = "/v1/admin/erasures";
/** Per day and agent: conversations, messages, tokens, quick-path share, first-token times, tools, feedback. */
export const adminInsights = "/v1/admin/insights";
export const adminPrompts = "/v1/admin/prompts";
export const adminPrompt = "/v1/admin/prompts/:agent/:name";
export const adminPromptVersion = "/v1/admin/prompts/:agent/:name/versions/:ref";
export const adminPromptDiff = "/v1/admin/prompts/:agent/:name/diff";
export const adminPromptVersions = "/v1/admin/prompts/:agent/:name/versions";
export const adminPromptLabel = "/v1/admin/prompts/:agent/:name/labels/:label";
export const adminPromptHistory = "/v1/admin/prompts/:agent/:name/history";
export const adminSystemPrompt = "/v1/admin/agents/:agent/system-prompt";
export const adminDeskQueue = "/v1/admin/desk/:agent/queue";
export const adminDeskRuns = "/v1/admin/desk/:agent/runs";
export const adminDeskRunDetail = "/v1/admin/desk/:agent/runs/:run";
export const adminDeskNotes = "/v1/admin/desk/:agent/notes";
export const adminDeskRun = "/v1/admin/desk/:agent/run";
export const adminDeskPromote = "/v1/admin/desk/:agent/runs/:run/promote";
export const adminDeskReject = "/v1/admin/desk/:agent/runs/:run/reject";
export const adminDeskRollback = "/v1/admin/desk/:agent/rollback";
/** The site's settings (origins, models, limits, budgets, retention), read and written by its owner. */
export const adminSite = "/v1/admin/site";
/** Agent templates an owner creates an agent from. */
export const adminTemplates = "/v1/admin/templates";
export const adminAgents = "/v1/admin/agents";
export const adminAgent = "/v1/admin/agents/:agent";
/** An agent's draft: read and saved (PUT) apart from what visitors get, tried in the console, then published. */
export const adminAgentDraft = "/v1/admin/agents/:agent/draft";
export const adminAgentDraftPublish = "/v1/admin/agents/:agent/draft/publish";
/** The documents knowledge_search ranks for the site's tenant, and what a query retrieves. */
export const adminKnowledge = "/v1/admin/knowledge";
export const adminKnowledgeDoc = "/v1/admin/knowledge/:doc";
export const adminKnowledgeSearch = "/v1/admin/knowledge-search";
/** Takeover, staff side: the queue and live conversations; presence (heartbeat POST, DELETE on leaving). */
export const adminLive = "/v1/admin/live";
export const adminLivePresence = "/v1/admin/live/presence";
/** A conversation's live channel for staff (WebSocket, or SSE): the same frames the visitor gets. */
export const adminLiveChannel = "/v1/admin/live/:id/channel";
export const adminLiveJoin = "/v1/admin/live/:id/join";
export const adminLiveMessages = "/v1/admin/live/:id/messages";
export const adminLiveHandback = "/v1/admin/live/:id/handback";
/** The team (owners): accounts, invitations, named admin keys (`bootstrap` is the site's original admin key). */
export const adminAccounts = "/v1/admin/accounts";
export const adminAccount = "/v1/admin/accounts/:account";
/** One of an account's single sign-on identities, which an owner unlinks. */
export const adminAccountIdentity = "/v1/admin/accounts/:account/identities/:identity";
export const adminInvitations = "/v1/admin/invitations";
export const adminInvitation = "/v1/admin/invitations/:invitation";
export const adminKeys = "/v1/admin/keys";
export const adminKeyRevoke = "/v1/admin/keys/:key";
/** The signed-in account itself: who it is, its passkeys (add one, remove one), its SSO identities (unlink one). */
export const adminMe = "/v1/admin/me";
export const adminMyPasskeyOptions = "/v1/admin/me/passkeys/options";
export const adminMyPasskeys = "/v1/admin/me/passkeys";
export const adminMyPasskey = "/v1/admin/me/passkeys/:passkey";
export const adminMyIdentity = "/v1/admin/me/identities/:identity";
/** The site's single sign-on (owners): read, set (the issuer's discovery checked), turn off. */
export const adminSso = "/v1/admin/sso";
/** The audit trail (owners): filtered entries or an export (`?format=csv|json`), and the chain's check. */
export const adminAudit = "/v1/admin/audit";
export const adminAuditVerify = "/v1/admin/audit/verify";
/** Signed webhooks: the site's endpoints (list, create), one endpoint (change, delete), its secret's rotation. */
export const adminWebhooks = "/v1/admin/webhooks";
export const adminWebhook = "/v1/admin/webhooks/:endpoint";
export const adminWebhookRotate = "/v1/admin/webhooks/:endpoint/rotate";
/** A test event to one endpoint, delivered like any other. */
export const adminWebhookTest = "/v1/admin/webhooks/:endpoint/test";
/** Deliveries, newest first (`?endpoint=&status=`), and sending one again. */
export const adminWebhookDeliveries = "/v1/admin/webhook-deliveries";
export const adminWebhookResend = "/v1/admin/webhook-deliveries/:delivery/resend";
/** The site's calendar for booking in the chat: read, connect or change (PUT), disconnect (DELETE). */
export const adminBooking = "/v1/admin/booking";
/** The site's MCP servers, the whole list: read, replace (PUT). */
export const adminMcpServers = "/v1/admin/mcp-servers";
/** "Test connection": lists one server's tools from the worker, saved or not (owners). */
export const adminMcpServerTest = "/v1/admin/mcp-servers/test";
/** Every saved server's tools, for an agent's allowlist (editors). */
export const adminMcpTools = "/v1/admin/mcp-tools";
export const embed = "/embed/:agent";
/** The owner's console: sign in (POST), who is signed in (GET), sign out (DELETE). */
export const consoleSession = "/v1/console/session";
/** Passkey sign-in: a challenge for the site (POST options), then the signed answer (POST). */
export const consolePasskeyOptions = "/v1/console/passkey/options";
export const consolePasskey = "/v1/console/passkey";
/** An invitation link: what it offers (POST, the secret in the body), a challenge, then the new account's passkey. */
export const consoleInvitation = "/v1/console/invitation";
export const consoleInvitationOptions = "/v1/console/invitation/options";
export const consoleInvitationAccept = "/v1/console/invitation/accept";
/**
 * Single sign-on: whether a site has it (GET `?site=`), the start (the provider's address, and the
 * browser's `__Host-` binding cookie), and the callback (the code and state the provider sent back).
 */
export const consoleSso = "/v1/console/sso";
export const consoleSsoStart = "/v1/console/sso/start";
export const consoleSsoCallback = "/v1/console/sso/callback";
/** The console's page: one shell for every console address (deep links load the same page). */
export const consoleHome = "/console";
export const consolePage = "/console/*";
/** The demo's stand-in for a host's backend: a signed rep identity for the sales coach (demo mode only). */
export const demoIdentity = "/v1/demo/identity";
/** Demo mode only: the demo site's webhook endpoint and its deliveries (GET), and the receiver it points at. */
export const demoWebhooks = "/v1/demo/webhooks";
export const demoWebhookInbox = "/v1/demo/webhook-inbox";
/** The demo site's pages, and the scripts and styles only they use (demo mode only). */
export const demoHome = "/";
export const demoPage = "/:file{[a-z0-9-]+\\.html}";
export const demoAsset = "/:file{[a-z0-9-]+\\.(?:js|css)}";

/** Where middleware applies: every API route (CORS, body limit), the admin routes (admin key). */
export const apiScope = "/v1/*";
export const adminScope = "/v1/admin/*";
