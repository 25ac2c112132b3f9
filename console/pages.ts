import type { FunctionComponent } from "preact";
import type { LocalizedText } from "../shared/config/localized-text.ts";
import type { Permission } from "../shared/admin/roles.ts";

export interface PageProps {
  /** The address's segments after the page's own path: `conversations/abc` gives ["abc"]. */
  rest: string[];
}

export interface ConsolePage {
  /** The first segment under /console: `conversations` is /console/conversations. */
  path: string;
  label: LocalizedText;
  /** What the signed-in role needs to see the page (shared/admin/roles.ts; the worker checks each route anyway). */
  need: Permission;
  /** The page's code, loaded the first time it is opened (a chunk of its own). */
  load: () => Promise<{ default: FunctionComponent<PageProps> }>;
}

/**
 * The console's pages, in the order the navigation lists them; the first is where /console goes.
 * To add a page, add ONE line here (path, label in both languages, the permission it needs, a dynamic import of a
 * module
 * whose default export is the page); the layout, the navigation and the router do the rest. A
 * page reads `rest` for its own sub-addresses and calls the worker with `api.get(ROUTES.x)` and the like (./api.ts).
 */
export const PAGES: ConsolePage[] = [
  {
    path: "conversations",
    label: { en: "Conversations", "zh-CN": "对话" },
    need: "conversations.read",
    load: () => import("./pages/conversations.tsx"),
  },
  { path: "live", label: { en: "Live", "zh-CN": "实时" }, need: "live", load: () => import("./pages/live.tsx") },
  { path: "setup", label: { en: "Setup", "zh-CN": "站点设置" }, need: "site", load: () => import("./pages/setup.tsx") },
  {
    path: "agents",
    label: { en: "Agents", "zh-CN": "助手" },
    need: "agents",
    load: () => import("./pages/agents.tsx"),
  },
  {
    path: "prompts",
    label: { en: "Prompts", "zh-CN": "提示词" },
    need: "prompts",
    load: () => import("./pages/prompts.tsx"),
  },
  {
    path: "desk",
    label: { en: "Strategy desk", "zh-CN": "策略台" },
    need: "desk",
    load: () => import("./pages/desk.tsx"),
  },
  {
    path: "knowledge",
    label: { en: "Knowledge", "zh-CN": "知识库" },
    need: "knowledge",
    load: () => import("./pages/knowledge.tsx"),
  },
  {
    path: "webhooks",
    label: { en: "Webhooks", "zh-CN": "Webhook" },
    need: "site",
    load: () => import("./pages/webhooks.tsx"),
  },
  {
    path: "booking",
    label: { en: "Booking", "zh-CN": "预约" },
    need: "site",
    load: () => import("./pages/booking.tsx"),
  },
  {
    path: "mcp",
    label: { en: "MCP servers", "zh-CN": "MCP 服务器" },
    need: "site",
    load: () => import("./pages/mcp.tsx"),
  },
  {
    path: "insights",
    label: { en: "Insights", "zh-CN": "数据洞察" },
    need: "insights",
    load: () => import("./pages/insights.tsx"),
  },
  { path: "team", label: { en: "Team", "zh-CN": "团队" }, need: "team", load: () => import("./pages/team.tsx") },
  { path: "audit", label: { en: "Audit", "zh-CN": "审计" }, need: "audit", load: () => import("./pages/audit.tsx") },
  {
    path: "account",
    label: { en: "My account", "zh-CN": "我的账户" },
    need: "signed_in",
    load: () => import("./pages/account.tsx"),
  },
];
