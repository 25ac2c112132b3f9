/** `import css from "./x.css?inline"`: Vite's build gives the file's minified CSS as a string. */
declare module "*.css?inline" {
  const css: string;
  export default css;
}
