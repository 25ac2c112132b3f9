/**
 * The worker tests' slow provider holds a reply whose user message contains this marker after
 * `HELD_AFTER_CHUNKS` chunks (the role, then words) until the worker ends the request: a reply that
 * is still streaming whenever the test acts, however slow the machine.
 */
export const HELD = "[held]";
export const HELD_AFTER_CHUNKS = 8;
