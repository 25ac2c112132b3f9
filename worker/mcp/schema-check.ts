const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];

/**
 * Why a tool's input schema is not one the model can be given, or null. A server's schema goes to
 * the provider as the function's parameters, and a provider refuses the whole request over one bad
 * schema, so each is checked here: an object at the top, known type names, `properties` a map of
 * schemas, `required` a list of names, sub-schemas likewise, not too deep or too large.
 */
export function inputSchemaProblem(schema: unknown): string | null {
  if (!isObject(schema) || schema.type !== "object") return 'the top level must be { "type": "object" }';
  if (JSON.stringify(schema).length > 32_000) return "larger than 32 000 characters";
  return problemAt(schema, "", 0);
}

function problemAt(node: unknown, path: string, depth: number): string | null {
  if (typeof node === "boolean") return null;
  if (!isObject(node)) return `${path || "(root)"} is not a schema`;
  if (depth > 12) return `${path} nests too deep`;
  const type = node.type;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  const unknown = types.find((t) => typeof t !== "string" || !TYPES.has(t));
  if (unknown !== undefined) return `${path || "(root)"}: unknown type ${JSON.stringify(unknown)}`;
  if (node.properties !== undefined) {
    if (!isObject(node.properties)) return `${path}.properties must be an object`;
    for (const [k, v] of Object.entries(node.properties)) {
      const p = problemAt(v, `${path}.${k}`, depth + 1);
      if (p) return p;
    }
  }
  if (
    node.required !== undefined &&
    !(Array.isArray(node.required) && node.required.every((r) => typeof r === "string"))
  )
    return `${path || "(root)"}.required must be a list of property names`;
  for (const key of ["items", "additionalProperties", "not"]) {
    if (node[key] === undefined) continue;
    const p = problemAt(node[key], `${path}.${key}`, depth + 1);
    if (p) return p;
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (node[key] === undefined) continue;
    if (!Array.isArray(node[key])) return `${path}.${key} must be a list of schemas`;
    for (const [i, sub] of (node[key] as unknown[]).entries()) {
      const p = problemAt(sub, `${path}.${key}.${i}`, depth + 1);
      if (p) return p;
    }
  }
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
