import type { LocalizedText } from "../shared/config/localized-text.ts";
import type { Role } from "../shared/admin/roles.ts";

/** The roles as the console names them, in both languages. */
export const ROLE_LABELS: Record<Role, LocalizedText> = {
  owner: { en: "owner", "zh-CN": "所有者" },
  editor: { en: "editor", "zh-CN": "编辑" },
  staff: { en: "staff", "zh-CN": "客服人员" },
  viewer: { en: "viewer", "zh-CN": "只读成员" },
};
