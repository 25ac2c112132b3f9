// One matcher for both sides: the iframe embed page checks its parent's origin with the same code.
export { originAllowed } from "../../shared/config/origins.ts";
