import { readFileSync } from "node:fs";
import { fmt } from "../helpers/stats.ts";

/**
 * Summaries of what Chromium recorded while a page streamed a reply (stream-profile.ts): a trace
 * (Tracing domain) by thread, by event and by kind of frame, and a sampled JavaScript profile by
 * function. CPU time, not wall time, wherever the trace has it: a loaded machine stretches the second.
 */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs), where the trace has it. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { message?: string } };
}

const cpuOf = (e: TraceEvent) => e.tdur ?? e.dur ?? 0;
const ms = (us: number, digits = 0) => fmt(us / 1000, digits);

/** Self time (µs) per event name: an event's CPU time less that of the events inside it. */
function selfTimes(events: TraceEvent[]): Array<[string, number]> {
  const spans = events
    .filter((e) => e.ph === "X" && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const add = (name: string, us: number) => self.set(name, (self.get(name) ?? 0) + us);
  const stack: TraceEvent[] = [];
  for (const s of spans) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= s.ts) stack.pop();
    if (stack.length) add(stack.at(-1)!.name, -cpuOf(s));
    add(s.name, cpuOf(s));
    stack.push(s);
  }
  return [...self].sort((a, b) => b[1] - a[1]);
}

/** A thread's top-level tasks, each with the events inside it. */
function tasksOf(events: TraceEvent[]): Array<{ task: TraceEvent; inside: TraceEvent[] }> {
  const tasks: Array<{ task: TraceEvent; inside: TraceEvent[] }> = [];
  let end = -1;
  for (const e of events.filter((x) => x.ph === "X").sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)) {
    if (e.ts >= end && e.name === "ThreadControllerImpl::RunTask") {
      tasks.push({ task: e, inside: [] });
      end = e.ts + (e.dur ?? 0);
    } else if (e.ts < end) tasks.at(-1)!.inside.push(e);
  }
  return tasks;
}

/** What a frame did: its rAF callbacks, events (scroll), hit test of the mouse, style, layout, paint. */
function frameKind(inside: TraceEvent[]): string {
  const has = (name: string) => inside.some((e) => e.name === name);
  const parts: Array<[string, string]> = [
    ["FireAnimationFrame", "rAF"],
    ["EventDispatch", "event"],
    ["EventHandler::handleMouseMoveEvent", "mouse"],
    ["UpdateLayoutTree", "style"],
    ["Layout", "layout"],
    ["Paint", "paint"],
  ];
  return parts.flatMap(([name, label]) => (has(name) ? [label] : [])).join("+") || "(empty)";
}

export function printTrace(raw: string): void {
  const events = (JSON.parse(raw) as { traceEvents: TraceEvent[] }).traceEvents;
  const threadName = new Map(
    events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args?.name]),
  );
  const threads = new Map<string, TraceEvent[]>();
  for (const e of events) threads.set(`${e.pid}:${e.tid}`, [...(threads.get(`${e.pid}:${e.tid}`) ?? []), e]);
  const busy = [...threads].map(([k, es]) => {
    const cpu = tasksOf(es).reduce((n, t) => n + cpuOf(t.task), 0);
    return { k, name: threadName.get(k) ?? "?", cpu, count: es.length };
  });
  console.log(
    `CPU by thread (ms): ${busy
      .sort((a, b) => b.cpu - a.cpu)
      .slice(0, 6)
      .map((t) => `${t.name} ${ms(t.cpu)}`)
      .join(", ")}`,
  );
  // The page's renderer: the main thread with the most events.
  const main = busy.filter((t) => t.name === "CrRendererMain").sort((a, b) => b.count - a.count)[0];
  const mine = threads.get(main.k)!;
  console.log("renderer main thread, CPU self time by event (ms), top 20:");
  for (const [name, us] of selfTimes(mine).slice(0, 20)) console.log(`  ${ms(us, 1).padStart(8)}  ${name}`);
  const tasks = tasksOf(mine);
  const frames = tasks.filter((t) => t.inside.some((e) => e.name === "Commit"));
  const reads = tasks.filter((t) => t.inside[0]?.name === "SimpleWatcher::OnHandleReady");
  const sum = (ts: typeof tasks) => ms(ts.reduce((n, t) => n + cpuOf(t.task), 0));
  console.log(
    `tasks: ${tasks.length} (${sum(tasks)} ms CPU), of them ${frames.length} frames (${sum(frames)} ms) and ` +
      `${reads.length} network reads (${sum(reads)} ms)`,
  );
  const kinds = new Map<string, typeof tasks>();
  for (const f of frames) kinds.set(frameKind(f.inside), [...(kinds.get(frameKind(f.inside)) ?? []), f]);
  console.log("frames by what they did: count, CPU ms, ms each");
  for (const [kind, fs] of [...kinds].sort((a, b) => b[1].length - a[1].length))
    console.log(`  ${String(fs.length).padStart(5)} ${sum(fs).padStart(6)} ${fmt(+sum(fs) / fs.length, 2)}  ${kind}`);
  // What the last word waited for: the page's tasks from the DOM having it to its paint (stream-page.ts's marks).
  const marks = mine.filter((e) => e.name === "TimeStamp" && e.args?.data?.message?.startsWith("bench: "));
  const from = marks[0]?.ts;
  const to = marks.at(-1)?.ts;
  if (from === undefined || to === undefined) return;
  console.log(`from the word in the DOM to its paint (${ms(to - from)} ms), tasks over 0.5 ms (start, wall, CPU):`);
  for (const { task, inside } of tasks.filter((t) => t.task.ts + (t.task.dur ?? 0) >= from && t.task.ts <= to)) {
    if ((task.dur ?? 0) < 500) continue;
    const what = inside.find((e) => !/RunTask|BlinkScheduler|ProxyMain/.test(e.name))?.name ?? "";
    const cols = [ms(task.ts - from, 1).padStart(7), ms(task.dur ?? 0, 1).padStart(6), ms(cpuOf(task), 1).padStart(6)];
    console.log(`  ${cols.join(" ")}  ${what}`);
  }
}

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function of a sampled profile, with the start of its source in the built bundle. */
export function printProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)!;
    const file = f.url.replace(/^.*\//, "");
    const key = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
  });
  const sources = new Map<string, string[]>();
  const snippet = (key: string) => {
    const m = / (parley[^:]*\.js):(\d+):(\d+)$/.exec(key);
    if (!m) return "";
    if (!sources.has(m[1])) sources.set(m[1], readFileSync(`dist/public/${m[1]}`, "utf8").split("\n"));
    return (sources.get(m[1])![Number(m[2]) - 1] ?? "").slice(Number(m[3]) - 1, Number(m[3]) + 70);
  };
  const rows = [...self].sort((a, b) => b[1] - a[1]);
  console.log(`JavaScript profile: ${ms(rows.reduce((n, [, us]) => n + us, 0))} ms sampled; self time (ms), top 30:`);
  for (const [key, us] of rows.slice(0, 30)) console.log(`  ${ms(us, 1).padStart(8)}  ${key}  ${snippet(key)}`);
}
