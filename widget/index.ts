/** npm entry: `import { mount } from "parley"` mounts the widget into a host element. */
export { mount } from "./embed/mount.ts";
export { WIDGET_EVENTS } from "./state/events.ts";
export type { MountOptions, WidgetEvent, WidgetEventMap, WidgetHandle, WidgetMessage, WidgetError } from "./state/events.ts";
