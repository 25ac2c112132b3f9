import { loadOnce } from "../../load-once.ts";

/**
 * The text ReAct parser, for agents whose model has no native tools (strategy `text-react`): a lazy
 * chunk of its own, so every other agent does not carry it. The loop awaits it before the first
 * step; the panel loads it as soon as the agent's config names the strategy.
 */
export const loadTextReact = loadOnce(() => import("./text-react-parse.ts"));
export type TextReact = Awaited<ReturnType<typeof loadTextReact>>;
