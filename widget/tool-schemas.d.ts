/**
 * The tools' input schemas as JSON Schema, derived at build time from their zod schemas in shared/tools/
 * (scripts/tool-schemas-plugin.ts, in the Vite and vitest configs); the widget checks arguments with them.
 */
declare module "virtual:parley/tool-schemas" {
  const schemas: Record<string, { runsOn: "client" | "edge"; schema: object }>;
  export default schemas;
}
