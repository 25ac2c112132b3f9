/** TypeScript types (`paths`, `components`, `operations`) of an OpenAPI document, as source text. */
export function generateTypes(document: object): Promise<string>;
