/**
 * KV key of an agent a site's owner wrote (the console, `npm run deploy`). Agents written by
 * `presets:install` are `agent:<id>`, which several sites may list; an owner's edit goes to the site's
 * own key, so it never changes another site's agent. Agent ids have no colon, so the key cannot be
 * ambiguous. A module of its own: the deploy script writes these keys from Node.
 */
export const siteAgentKey = (siteKey: string, agentId: string) => `site-agent:${siteKey}:${agentId}`;

/** KV key of an agent's draft: what the owner tries in the console before publishing it to siteAgentKey. */
export const draftAgentKey = (siteKey: string, agentId: string) => `site-agent-draft:${siteKey}:${agentId}`;
