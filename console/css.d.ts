// Vite extracts imported CSS into console/console.css (vite.config.ts); the import has no value.
declare module "*.css";
