/**
 * npm entry: `import { mount } from "parley"` mounts the widget into a host element; also a Preact
 * component, the `<parley-chat>` custom element, and the host side of the iframe embed's bridge.
 */
export { mount } from "./embed/mount.ts";
export { ParleyChat, type ParleyChatProps } from "./embed/component.tsx";
export { defineParleyElement, type ParleyChatElement } from "./embed/element.ts";
export { createIframeBridge, type IframeBridge, type IframeBridgeOptions } from "./embed/iframe-bridge.ts";
export { WIDGET_EVENTS } from "./state/events.ts";
export type {
  MountOptions,
  WidgetAdvice,
  WidgetEvent,
  WidgetEventMap,
  WidgetHandle,
  WidgetMessage,
  WidgetError,
  WidgetTheme,
} from "./state/events.ts";
