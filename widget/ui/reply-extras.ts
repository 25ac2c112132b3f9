/**
 * What a reply shows besides its text, in one chunk (issue 18): copy and rating under a finished reply,
 * the model's working collapsed under it, advice cards and the advice list. It loads as the first
 * message is sent (message-list.tsx), or with the config of an agent that records advice; one chunk
 * rather than several, since each chunk is a gzip stream of its own.
 */
export { AdviceCard, AdviceList } from "./advice.tsx";
export { Reasoning } from "./reasoning.tsx";
export { ReplyActions } from "./reply-actions.tsx";
