import type { FunctionComponent } from "preact";
import type { LocalizedText } from "../shared/localized-text.ts";

export interface PageProps {
  /** The address's segments after the page's own path: `conversations/abc` gives ["abc"]. */
  rest: string[];
}

export interface ConsolePage {
  /** The first segment under /console: `conversations` is /console/conversations. */
  path: string;
  label: LocalizedText;
  /** The page's code, loaded the first time it is opened (a chunk of its own). */
  load: () => Promise<{ default: FunctionComponent<PageProps> }>;
}

/**
 * The console's pages, in the order the navigation lists them; the first is where /console goes.
 * To add a page, add ONE line here (path, label in both languages, a dynamic import of a module
 * whose default export is the page); the layout, the navigation and the router do the rest. A
 * page reads `rest` for its own sub-addresses and calls the worker with `api()` (./api.ts).
 */
export const PAGES: ConsolePage[] = [
  {
    path: "conversations",
    label: { en: "Conversations", "zh-CN": "对话" },
    load: () => import("./pages/conversations.tsx"),
  },
  { path: "live", label: { en: "Live", "zh-CN": "实时" }, load: () => import("./pages/live.tsx") },
  { path: "setup", label: { en: "Setup", "zh-CN": "站点设置" }, load: () => import("./pages/setup.tsx") },
  { path: "agents", label: { en: "Agents", "zh-CN": "助手" }, load: () => import("./pages/agents.tsx") },
  { path: "prompts", label: { en: "Prompts", "zh-CN": "提示词" }, load: () => import("./pages/prompts.tsx") },
  { path: "desk", label: { en: "Strategy desk", "zh-CN": "策略台" }, load: () => import("./pages/desk.tsx") },
  { path: "knowledge", label: { en: "Knowledge", "zh-CN": "知识库" }, load: () => import("./pages/knowledge.tsx") },
  { path: "webhooks", label: { en: "Webhooks", "zh-CN": "Webhook" }, load: () => import("./pages/webhooks.tsx") },
  { path: "insights", label: { en: "Insights", "zh-CN": "数据洞察" }, load: () => import("./pages/insights.tsx") },
];
