/**
 * React DOM's client, as an ES module of ours: src/main.tsx imports it at start-up. react-dom/client is CommonJS,
 * and importing it from the entry directly would make the entry itself carry the bundler's CommonJS interop
 * helpers, which, with the chunk groups of pwa/vite.config.ts, came as a file of their own requested with the
 * entry, before the page's first paint. Here the interop stays in the `react` chunk.
 */
export { createRoot, hydrateRoot } from 'react-dom/client';
