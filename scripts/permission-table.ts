import { ROUTE_PERMISSIONS } from "../shared/wire/route-permissions.ts";
import { can, ROLES } from "../shared/admin/roles.ts";

/**
 * Prints the permission table (shared/wire/route-permissions.ts) as docs/accounts.md shows it: each route,
 * what it needs, which role may call it, whether it asks for a fresh sign-in and its audit action.
 * `npx tsx scripts/permission-table.ts`; `--groups`: one line per route group (its path's first part
 * after /v1/admin/ or /v1/console/) and role, allowed on all, some or none of the group's routes.
 */
const cell = (need: string, role: (typeof ROLES)[number]) =>
  need === "self" ? "account" : can(role, need as never) ? "yes" : "—";

if (process.argv.includes("--groups")) {
  const groups = new Map<string, Array<[string, string]>>();
  for (const [key, rule] of Object.entries(ROUTE_PERMISSIONS)) {
    const group = key.split(" ")[1]!.split("/").slice(1, 4).join("/");
    groups.set(group, [...(groups.get(group) ?? []), [key, rule.need]]);
  }
  console.log(`| route group | routes | ${ROLES.join(" | ")} |`);
  console.log(`| --- | --- | ${ROLES.map(() => "---").join(" | ")} |`);
  for (const [group, routes] of groups) {
    const of = (role: (typeof ROLES)[number]) => {
      const n = routes.filter(([, need]) => cell(need, role) !== "—").length;
      return n === routes.length ? "all" : n === 0 ? "none" : `${n} of ${routes.length}`;
    };
    console.log(`| \`/${group}\` | ${routes.length} | ${ROLES.map(of).join(" | ")} |`);
  }
} else {
  console.log(`| route | needs | ${ROLES.join(" | ")} | fresh sign-in | audited as |`);
  console.log(`| --- | --- | ${ROLES.map(() => "---").join(" | ")} | --- | --- |`);
  for (const [key, rule] of Object.entries(ROUTE_PERMISSIONS))
    console.log(
      `| \`${key}\` | ${rule.need} | ${ROLES.map((r) => cell(rule.need, r)).join(" | ")} | ` +
        `${rule.fresh ? "yes" : ""} | ${rule.audit ?? ""} |`,
    );
}
