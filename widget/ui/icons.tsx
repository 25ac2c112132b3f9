/** Inline SVG icons (decorative: the buttons carry the accessible names). */
import type { ComponentChildren } from "preact";

/** The line icons' common frame: 24-unit box, round caps, drawn in the text colour. */
export const Stroked = ({
  width = "2",
  join = true,
  children,
}: {
  width?: string;
  join?: boolean;
  children: ComponentChildren;
}) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width={width}
    stroke-linecap="round"
    stroke-linejoin={join ? "round" : undefined}
    aria-hidden="true"
  >
    {children}
  </svg>
);

export const ChatIcon = () => (
  <Stroked>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z" />
  </Stroked>
);
export const CloseIcon = () => (
  <Stroked width="2.2" join={false}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Stroked>
);
export const SendIcon = () => (
  <Stroked width="2.2">
    <path d="M5 12h13M13 6l6 6-6 6" />
  </Stroked>
);
export const StopIcon = () => (
  <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <rect x="7" y="7" width="10" height="10" rx="2" />
  </svg>
);
export const NewIcon = () => (
  <Stroked>
    <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
  </Stroked>
);
/** A shield: the visitor's own data (download, delete). */
export const DataIcon = () => (
  <Stroked>
    <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z" />
  </Stroked>
);
export const BookmarkIcon = () => (
  <Stroked>
    <path d="M6 3h12v18l-6-4-6 4z" />
  </Stroked>
);
