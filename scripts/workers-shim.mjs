// For Node scripts that load the worker's app without running it (scripts/openapi.ts): `cloudflare:workers`
// exists only inside workerd, and the app's modules import it for the Durable Object base class, which
// nothing here constructs. `tsx --import ./scripts/workers-shim.mjs <script>`.
import { register } from "node:module";

const stub = "export class DurableObject {} export class WorkerEntrypoint {} export const env = {};";
const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers")
    return { url: "data:text/javascript," + encodeURIComponent(${JSON.stringify(stub)}), shortCircuit: true };
  return next(specifier, context);
}`;
register("data:text/javascript," + encodeURIComponent(hooks));
