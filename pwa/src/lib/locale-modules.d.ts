// A section of a locale file (`…/en.json?area=<area>&locale.json`), cut out at build time by the Vite plugin in
// pwa/vite.config.ts. Outside Vite's build (unit tests) the query is ignored and the whole file is returned.
declare module '*&locale.json' {
  const tree: { [key: string]: unknown };
  export default tree;
}
