/** The photo kit's icons (decorative: the buttons carry the names), in its own chunk. */
const frame = { viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", "stroke-width": "2", "aria-hidden": true };

export const PhotoIcon = () => (
  <svg {...frame} stroke-linecap="round" stroke-linejoin="round">
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <circle cx="9" cy="10" r="1.6" />
    <path d="M21 16l-5-5-9 8" />
  </svg>
);

export const CameraIcon = () => (
  <svg {...frame} stroke-linecap="round" stroke-linejoin="round">
    <path d="M4 8h3l2-2.5h6L17 8h3v11H4z" />
    <circle cx="12" cy="13" r="3.5" />
  </svg>
);
