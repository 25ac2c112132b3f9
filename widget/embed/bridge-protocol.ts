/**
 * The postMessage protocol between a host page and the iframe embed page (/embed/<agent>).
 * Host -> frame: `{ parley: 1, cmd, value? }`; frame -> host: `{ parley: 1, event, payload }` with
 * the widget's public events. Both sides check the other's origin; neither posts to "*".
 */
import type { WidgetEvent, WidgetEventMap } from "../state/events.ts";

export const BRIDGE_COMMANDS = ["hello", "open", "close", "send", "identity", "theme"] as const;
export type BridgeCommand = (typeof BRIDGE_COMMANDS)[number];

export interface BridgeCommandMessage {
  parley: 1;
  cmd: BridgeCommand;
  value?: string;
}

export interface BridgeEventMessage<E extends WidgetEvent = WidgetEvent> {
  parley: 1;
  event: E;
  payload: WidgetEventMap[E];
}

export function isCommand(data: unknown): data is BridgeCommandMessage {
  const d = data as BridgeCommandMessage | null;
  return (
    !!d &&
    d.parley === 1 &&
    (BRIDGE_COMMANDS as readonly string[]).includes(d.cmd) &&
    (d.value === undefined || typeof d.value === "string")
  );
}

export function isEvent(data: unknown): data is BridgeEventMessage {
  const d = data as BridgeEventMessage | null;
  return !!d && d.parley === 1 && typeof d.event === "string";
}
