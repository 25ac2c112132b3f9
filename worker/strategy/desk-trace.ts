import type { Span, SpanAttr as Attr, SpanKind } from "../../shared/admin/desk-records.ts";
import { ownerMessage } from "../errors.ts";

/*
 * A run's trace as nested spans (the strategy desk's span levels: run, loop, agent, completion, tool), each
 * with its time and, for completions, model and tokens. Kept with the run and read by the owner.
 */

export function openSpan(name: string, kind: SpanKind, attrs: Record<string, Attr> = {}): Span {
  return { name, kind, startedAt: Date.now(), ms: 0, ok: true, attrs, children: [] };
}

/** Runs `fn` inside a child span of `parent`; the span ends (with its time) whether fn returns or throws. */
export async function inSpan<T>(
  parent: Span,
  name: string,
  kind: SpanKind,
  attrs: Record<string, Attr>,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = openSpan(name, kind, attrs);
  parent.children.push(span);
  try {
    return await fn(span);
  } catch (err) {
    span.ok = false;
    span.attrs.error = ownerMessage(err);
    throw err;
  } finally {
    span.ms = Date.now() - span.startedAt;
  }
}

export function closeSpan(span: Span, ok: boolean, attrs: Record<string, Attr> = {}): Span {
  span.ok = ok;
  Object.assign(span.attrs, attrs);
  span.ms = Date.now() - span.startedAt;
  return span;
}
