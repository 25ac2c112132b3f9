/** OpenCC's dictionaries as opencc-js ships them: "trad simp|trad simp|…", one string. */
declare module "opencc-js/dict/*" {
  const dict: string;
  export default dict;
}
