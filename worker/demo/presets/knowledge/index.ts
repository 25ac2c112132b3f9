import type { IndexedDoc } from "../../../tools/text-index.ts";
import { DEMO_DOCS } from "./demo-docs.ts";

/** Preset documents by tenant id; KV `docs:<tenantId>` replaces them. */
export const PRESET_KNOWLEDGE: Record<string, IndexedDoc[]> = {
  demo: DEMO_DOCS,
};
