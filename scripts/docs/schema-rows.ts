// A JSON Schema (as zod's z.toJSONSchema writes them into the API contract) flattened into rows of a field
// table: one row per field, nested fields named by their path (`messages[].role`, `budgets.sitePerDay`).
import { code } from "./markdown-text.ts";

export type JsonSchema = { [key: string]: unknown };

export interface FieldRow {
  /** Dotted path from the body's root; `[]` for an array's items, `*` for a map's values. */
  field: string;
  type: string;
  required: boolean;
  /** Constraints and description, as Markdown. */
  notes: string;
}

/** How a `$ref` to `#/components/schemas/<name>` is written in a type cell (a link to where it is shown). */
export type RefLink = (name: string) => string;

// Deep enough for every body the API has; a deeper one ends in its type, so a recursive schema cannot loop.
const MAX_DEPTH = 8;

const isSchema = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

const refName = (s: JsonSchema) =>
  typeof s.$ref === "string" && s.$ref.startsWith("#/components/schemas/") ? s.$ref.slice(21) : undefined;

const variantsOf = (s: JsonSchema): JsonSchema[] =>
  [s.anyOf, s.oneOf].flatMap((list) => (Array.isArray(list) ? list.filter(isSchema) : []));

const isNull = (s: JsonSchema) => s.type === "null";

/** Whether a schema's rows go below it: an object with properties, or a map or array of such. */
function hasChildren(s: JsonSchema): boolean {
  if (refName(s)) return false;
  if (isSchema(s.properties) && Object.keys(s.properties).length > 0) return true;
  if (isSchema(s.items)) return hasChildren(s.items);
  if (isSchema(s.additionalProperties) && !isSchema(s.properties)) return hasChildren(s.additionalProperties);
  return variantsOf(s).some(hasChildren);
}

/** The type cell: `string`, `integer`, `string[]`, `object`, `map of string`, `string \| null`, a link. */
export function typeOf(s: JsonSchema, link: RefLink): string {
  const ref = refName(s);
  if (ref) return link(ref);
  const variants = variantsOf(s);
  if (variants.length > 0) {
    const objects = variants.filter(hasChildren).length;
    const simple = variants.filter((v) => !hasChildren(v)).map((v) => typeOf(v, link));
    return [...new Set(simple), ...(objects ? [objects === 1 ? "object" : `one of ${objects} objects`] : [])].join(
      " \\| ",
    );
  }
  if (s.type === "array") {
    const item = isSchema(s.items) ? typeOf(s.items, link) : "any";
    return /^[\w-]+$/.test(item) ? `${item}[]` : `array of (${item})`;
  }
  if (Array.isArray(s.type)) return s.type.join(" \\| ");
  if (s.type === "object" || s.properties) {
    const values = s.additionalProperties;
    if (!isSchema(s.properties) && isSchema(values) && Object.keys(values).length > 0) {
      return `map of ${typeOf(values, link)}`;
    }
    return "object";
  }
  if (s.const !== undefined) return typeof s.const;
  if (typeof s.type === "string") return s.type === "string" && s.format === "binary" ? "bytes" : s.type;
  return "any";
}

/** The notes cell: enum values, const, bounds, pattern, format, default, description. */
export function notesOf(s: JsonSchema): string {
  const notes: string[] = [];
  if (typeof s.description === "string") notes.push(s.description.replace(/\s+/g, " "));
  if (s.const !== undefined) notes.push(`always ${code(JSON.stringify(s.const))}`);
  if (Array.isArray(s.enum)) notes.push(`one of ${s.enum.map((v) => code(JSON.stringify(v))).join(", ")}`);
  const bound = (key: string, words: string, unit = "") => {
    // zod writes an integer with no bound of its own as the safe-integer range: not worth a note.
    const n = s[key];
    if (typeof n === "number" && Math.abs(n) < Number.MAX_SAFE_INTEGER) notes.push(`${words} ${n}${unit}`);
  };
  if (s.minLength === 1 || s.minItems === 1) notes.push("not empty");
  else bound("minLength", "at least", " characters");
  bound("maxLength", "at most", " characters");
  if (s.minItems !== 1) bound("minItems", "at least", " items");
  bound("maxItems", "at most", " items");
  bound("minimum", "≥");
  bound("exclusiveMinimum", ">");
  bound("maximum", "≤");
  bound("exclusiveMaximum", "<");
  if (typeof s.pattern === "string") notes.push(`matches ${code(s.pattern)}`);
  if (typeof s.format === "string" && s.format !== "binary") notes.push(`format ${s.format}`);
  if (s.default !== undefined) notes.push(`default ${code(JSON.stringify(s.default))}`);
  return notes.join("; ");
}

/** A variant's label in a path: its constant field when it has one (`{role: "user"}`), else its position. */
function variantLabel(v: JsonSchema, index: number): string {
  const props = isSchema(v.properties) ? v.properties : {};
  for (const [name, p] of Object.entries(props)) {
    if (isSchema(p) && p.const !== undefined) return `{${name}: ${JSON.stringify(p.const)}}`;
  }
  return `{shape ${index + 1}}`;
}

/** The rows of a schema's fields, below `path` (empty for the body's root). */
export function schemaRows(schema: JsonSchema, link: RefLink, path = "", depth = 0): FieldRow[] {
  if (depth > MAX_DEPTH || refName(schema)) return [];
  const rows: FieldRow[] = [];
  const variants = variantsOf(schema);
  if (variants.length > 0) {
    const withChildren = variants.filter(hasChildren);
    withChildren.forEach((v, i) => {
      const label = withChildren.length > 1 ? ` ${variantLabel(v, i)}` : "";
      rows.push(...schemaRows(v, link, `${path}${label}`, depth + 1));
    });
    return rows;
  }
  if (isSchema(schema.items)) return schemaRows(schema.items, link, `${path}[]`, depth + 1);
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if (isSchema(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      if (!isSchema(child)) continue;
      const field = path ? `${path}.${name}` : name;
      rows.push({ field, type: typeOf(child, link), required: required.has(name), notes: notesOf(child) });
      if (hasChildren(child)) rows.push(...schemaRows(child, link, field, depth + 1));
    }
  } else if (isSchema(schema.additionalProperties) && hasChildren(schema.additionalProperties)) {
    rows.push(...schemaRows(schema.additionalProperties, link, `${path}.*`, depth + 1));
  }
  return rows;
}
