/**
 * What a reply shows besides its text, in one chunk (a lean first load): copy and rating under a finished reply,
 * the model's working collapsed under it, advice cards and the advice list, and the emergency guard's
 * card. It loads as the first message is sent (message-list.tsx), with the config of an agent that records
 * advice or has the emergency guard (whose card comes ahead of the reply's text: app.tsx), or when a
 * restored conversation has an emergency card; one chunk rather than several, since each chunk is a gzip
 * stream of its own. Each module adds its own rules (a module of re-exports is left out of the bundle).
 */
export { AdviceCard, AdviceList } from "./advice.tsx";
export { Reasoning } from "./reasoning.tsx";
export { ReplyActions } from "./reply-actions.tsx";
export { EscalationCard } from "./escalation-card.tsx";
