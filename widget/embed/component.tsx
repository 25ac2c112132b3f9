import { useEffect, useRef } from "preact/hooks";
import type { MountOptions, WidgetHandle } from "../state/events.ts";
import { mount } from "./mount.ts";

export interface ParleyChatProps extends MountOptions {
  /** Called with the handle (open/close/send/on/...) once mounted. */
  onReady?: (handle: WidgetHandle) => void;
}

/**
 * The widget as a Preact component: `<ParleyChat siteKey="..." agentId="..." identity={user?.id} />`.
 * A changed `identity` switches the visitor in place (a fresh conversation, nothing of the previous
 * one shown); a changed site, agent, API or locale remounts.
 */
export function ParleyChat(props: ParleyChatProps) {
  const ref = useRef<HTMLDivElement>(null);
  const handle = useRef<WidgetHandle | null>(null);
  useEffect(() => {
    const h = mount(ref.current!, props);
    handle.current = h;
    props.onReady?.(h);
    return () => {
      handle.current = null;
      h.destroy();
    };
  }, [props.siteKey, props.agentId, props.api, props.locale]);
  useEffect(() => handle.current?.setIdentity(props.identity), [props.identity]);
  useEffect(() => handle.current?.setTheme(props.theme ?? "auto"), [props.theme]);
  return <div ref={ref} data-parley-host="" />;
}
