/**
 * The panel's strings in English (zh-cn.ts: Chinese), a chunk of its own that mount() fetches (i18n/index.ts).
 * Agent texts come localized from the worker; lazy chunks carry their own strings (takeover, stages, replies).
 */
export const en = {
  launcherOpen: "Open chat",
  launcherClose: "Close chat",
  close: "Close",
  defaultTitle: "Chat",
  subtitle: "AI assistant · replies instantly",
  placeholder: "Type your message…",
  send: "Send",
  stop: "Stop",
  connecting: "Connecting…",
  thinking: "Typing…",
  you: "You",
  assistant: "Assistant",
  stopped: "Stopped",
  replied: "New reply",
  retry: "Try again",
  demo: "Demo",
  poweredBy: "Powered by Parley",
  stepLimit: "I stopped here to keep this reply short. Ask me to continue if you need more.",
  adviceList: "Your advice",
  back: "Back",
  stages: "Progress",
  empty: "not yet",
  newChat: "New conversation",
  unread: "new",
  offline: "You're offline — your message is kept",
  queued: "Not sent yet — it goes as soon as you're back online",
  trace: "Trace",
  // Errors: `err_<code>` by code from shared/errors.ts (and the widget's own network/timeout kinds), so the
  // core needs no table from codes to texts (i18n/index.ts errorText).
  errGeneric: "Sorry, something went wrong. Please try again.",
  err_network: "We couldn't reach the server. Check your connection and try again.",
  err_timeout: "The server took too long to answer. Please try again.",
  err_rate_limited: "You're sending messages a little fast. Please wait a moment and try again.",
  err_budget_exceeded: "This conversation has reached its limit. Please start a new one later.",
  err_unauthorized: "Your chat session has expired. Please try again to start a new one.",
  err_unknown_site: "This chat isn't available on this website.",
  err_upstream_error: "The assistant is unavailable right now. Please try again in a minute.",
  err_upstream_busy: "The assistant is busy right now.",
  err_payload_too_large: "That message is too long. Please shorten it.",
  err_bad_request: "That message couldn't be sent. Please rephrase it and try again.",
  errCut: "The reply was cut off before it finished. You can try again.",
  errRetryIn: "You can try again in {n}\u00a0s.",
};
export type Strings = typeof en;
