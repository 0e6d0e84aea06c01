import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react-swc';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { TRYON_CODE_CHUNKS } from '../api/contract/face-model.js';
import { pickAreas } from './src/lib/locale-areas.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(root, '..');
const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };
// Each build is a new app version: the persisted query cache is busted by it (features/pwa).
const appVersion = `${pkg.version}+${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;

/**
 * `locales/<lng>.json?area=<area>&locale.json` → a module holding only that area ('core' = the core areas), so the
 * entry carries the core English strings and every other area is a small chunk of its own (src/lib/i18n.ts).
 * The locale files stay whole: one key tree per language.
 */
function localeAreas(): Plugin {
  const PREFIX = '\0nagai-locale:';
  return {
    name: 'nagai-locale-areas',
    enforce: 'pre',
    resolveId(source, importer) {
      const m = /^(.*\/locales\/(en|ta)\.json)\?area=(\w+)&locale\.json$/.exec(source);
      if (!m) return null;
      const file = path.resolve(importer ? path.dirname(importer) : root, m[1]);
      return `${PREFIX}${file}?${m[3]}`;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const [file, area] = id.slice(PREFIX.length).split('?');
      this.addWatchFile(file);
      const tree = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      // JSON.parse of a string literal is faster to start than an object literal of the same size.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(pickAreas(tree, area)))});`;
    },
  };
}

/**
 * Every `import … from 'sonner'` goes through src/lib/sonner-bridge.ts, which tells the root layout to mount
 * the Toaster: sonner is loaded only by the pages and actions that toast, never for the first paint.
 */
function sonnerBridge(): Plugin {
  const bridge = path.join(root, 'src/lib/sonner-bridge.ts');
  return {
    name: 'nagai-sonner-bridge',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== 'sonner' || !importer || importer.startsWith(bridge)) return null;
      return bridge;
    },
  };
}

/**
 * Every script and style sheet in `assets/` also written brotli- and gzip-compressed, at the highest levels, next
 * to itself (`x.js.br`, `x.js.gz`): the server sends those files as they are (api/src/http/static.ts) instead of
 * compressing the same bytes for every request. Compressing a page's scripts on each request cost the server
 * about 9 ms of CPU for the largest alone, on the cores the phone's browser shares with it in our benchmarks.
 */
function precompressAssets(): Plugin {
  return {
    name: 'nagai-precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const out = options.dir ?? path.dirname(options.file ?? '');
      for (const file of Object.values(bundle)) {
        if (!/^assets\/.+\.(js|css|svg)$/.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? file.code : file.source;
        const bytes = typeof source === 'string' ? Buffer.from(source, 'utf8') : Buffer.from(source);
        // Below koa-compress's threshold the server sends them as they are too.
        if (bytes.length < 1024) continue;
        const target = path.join(out, file.fileName);
        fs.writeFileSync(
          `${target}.br`,
          zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
        fs.writeFileSync(`${target}.gz`, zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}

/**
 * Every chunk the app imports dynamically (a page, a lazy part) names all the chunks it needs, directly or through
 * others, in its own imports: the browser then requests them all as soon as it has read that chunk, instead of
 * one level of the import tree after another. This takes the place of the preload links Vite's loader would
 * insert at run time (`build.modulePreload: false`): inserting some thirty links for a page in one go cost a
 * phone's main thread a long task (docs/benchmarks.md). The imports are added after the chunk's own, so the
 * order in which modules run is unchanged: each was already imported, through another chunk, before it.
 */
function hoistTransitiveImports(): Plugin {
  return {
    name: 'nagai-hoist-transitive-imports',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Rollup.OutputChunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      // The entry runs before the page's first paint and must load nothing else but Rolldown's few helpers.
      for (const chunk of chunks.values())
        if (chunk.isEntry)
          for (const dep of chunk.imports)
            if (Object.keys(chunks.get(dep)?.modules ?? {}).some((id) => !id.startsWith('\0')))
              this.error(`the entry ${chunk.fileName} imports ${dep}: a chunk group took one of its modules`);
      const closure = new Map<string, Set<string>>();
      const reach = (fileName: string): Set<string> => {
        const known = closure.get(fileName);
        if (known) return known;
        const all = new Set<string>();
        // A cycle ends here, with what is known so far: a chunk it leaves out is still found by the browser,
        // one level of imports later.
        closure.set(fileName, all);
        for (const dep of chunks.get(fileName)?.imports ?? []) {
          all.add(dep);
          for (const d of reach(dep)) all.add(d);
        }
        return all;
      };
      for (const chunk of chunks.values()) {
        if (!chunk.isDynamicEntry && !chunk.isEntry) continue;
        const direct = new Set(chunk.imports);
        const missing = [...reach(chunk.fileName)].filter((f) => !direct.has(f) && f !== chunk.fileName);
        if (!missing.length) continue;
        const program = this.parse(chunk.code) as unknown as { body: { type: string; end: number }[] };
        let end = 0;
        for (const node of program.body) if (node.type === 'ImportDeclaration') end = node.end;
        const dir = path.posix.dirname(chunk.fileName);
        const added = missing
          .map((f) => {
            const rel = path.posix.relative(dir, f);
            return `import"${rel.startsWith('.') ? rel : `./${rel}`}";`;
          })
          .join('');
        chunk.code = `${chunk.code.slice(0, end)}${added}${chunk.code.slice(end)}`;
        chunk.imports.push(...missing);
      }
    },
  };
}

/**
 * How the app's code is cut into chunks (docs/architecture.md, "Chunks"). Rolldown's automatic splitting gives
 * every set of pages that share modules a chunk of its own: with some sixty pages that was 38 files for a
 * visitor's /marketplace, a third of them icons and hooks of 0.1–0.5 KB, each costing a request and its headers.
 * Here the modules the start-up and the server-rendered pages load are grouped by when they are needed instead:
 *
 * - the entry (src/main.tsx and its static imports) stays as it is: it runs before the first paint;
 * - `react`, `router`, `boot`: what each of main.tsx's start-up imports (lib/react-dom-client, app/router, boot)
 *   adds, in that order. Every page loads all three, each evaluated in its own task, as main.tsx intends;
 * - the pages a visitor arrives on (the landing, the marketplace, the directory, a storefront, a product page):
 *   what only one of them adds goes into its own chunk, what two or more share into `catalogue`;
 * - every other icon into one `icons` chunk (the signed-in screens' icons: one file instead of dozens).
 *
 * Each group is closed under static imports (a module's imports are in its group, in an earlier one or in the
 * entry), so a chunk never waits on one loaded after it. The rest (the other pages, dialogs, locale areas:
 * lib/locale-areas.ts) is left to the automatic splitting.
 */
const START_UP = [
  { name: 'react', test: (id: string) => id === path.join(root, 'src/lib/react-dom-client.ts') },
  { name: 'router', test: (id: string) => id === path.join(root, 'src/app/router.tsx') },
  { name: 'boot', test: (id: string) => id === path.join(root, 'src/boot.tsx') },
];
const ARRIVAL_PAGES = [
  'features/home/pages/home-page.tsx',
  'features/catalog/pages/marketplace-page.tsx',
  'features/catalog/pages/sellers-page.tsx',
  'features/catalog/pages/storefront-page.tsx',
  'features/catalog/pages/product-page.tsx',
].map((p) => path.join(root, 'src', p));

/**
 * The package modules the entry's own code uses (src/lib/i18n.ts: i18next and react-i18next's initReactI18next).
 * The entry's imports reach more of react-i18next (and through it React), but those modules are tree-shaken out
 * of the entry and belong with React; the build fails if the entry chunk ever imports a group
 * (hoistTransitiveImports).
 */
const ENTRY_PACKAGE_MODULES = [
  /[\\/]node_modules[\\/]i18next[\\/]/,
  /[\\/]node_modules[\\/]react-i18next[\\/]dist[\\/]es[\\/](initReactI18next|defaults|i18nInstance|unescape)\.js$/,
];

type ModuleGraph = (id: string) => { importedIds: string[]; dynamicallyImportedIds: string[] } | null;

function chunkGroups(graph: ModuleGraph): (id: string) => string | null {
  const closure = (from: string, skip: (id: string) => boolean): Set<string> => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id) || skip(id)) continue;
      seen.add(id);
      stack.push(...(graph(id)?.importedIds ?? []));
    }
    return seen;
  };
  const main = path.join(root, 'src/main.tsx');
  const entry = new Set(
    [...closure(main, () => false)].filter(
      (id) => !/[\\/]node_modules[\\/]/.test(id) || ENTRY_PACKAGE_MODULES.some((re) => re.test(id)),
    ),
  );
  const group = new Map<string, string>();
  const taken = (id: string) => entry.has(id) || group.has(id) || id.startsWith('\0');
  const mainImports = graph(main)?.dynamicallyImportedIds ?? [];
  for (const { name, test } of START_UP) {
    const start = mainImports.find(test);
    if (!start)
      throw new Error(`chunk groups: src/main.tsx no longer imports the start-up module of '${name}'`);
    for (const id of closure(start, taken)) group.set(id, name);
  }
  const pagesOf = new Map<string, string[]>();
  for (const page of ARRIVAL_PAGES) {
    if (!graph(page)) throw new Error(`chunk groups: no module ${page}`);
    for (const id of closure(page, taken)) pagesOf.set(id, [...(pagesOf.get(id) ?? []), page]);
  }
  for (const [id, pages] of pagesOf)
    group.set(id, pages.length > 1 ? 'catalogue' : path.basename(pages[0]!, '.tsx'));
  // Rolldown's helpers (CommonJS interop, namespaces) go with React, which every page loads first: not a file of
  // their own. The entry needs none of them (src/lib/react-dom-client.ts).
  group.set('\0rolldown/runtime.js', 'react');
  return (id) =>
    group.get(id) ?? (/node_modules[\\/]lucide-react[\\/]/.test(id) && !taken(id) ? 'icons' : null);
}

function codeSplitting() {
  let groupOf: ((id: string) => string | null) | undefined;
  return {
    // Each group is already closed under its imports (above): what it imports is in an earlier group or the entry.
    includeDependenciesRecursively: false,
    groups: [
      {
        name: (id: string, ctx: { getModuleInfo: ModuleGraph }) => {
          groupOf ??= chunkGroups((m) => ctx.getModuleInfo(m));
          return groupOf(id);
        },
      },
    ],
  };
}

/** React libraries mark their modules "use client" (for React Server Components), which a browser build ignores. */
const quietDirectives = {
  onwarn(warning: { code?: string; message: string }, warn: (w: { code?: string; message: string }) => void) {
    if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && /use (client|server)/.test(warning.message)) return;
    warn(warning);
  },
};

const THEME = '#7a1f2b';
const BACKGROUND = '#fffdf8';

/**
 * `vite build` builds the app into dist/; `vite build --ssr` builds src/entry-server.tsx into dist-ssr/ for the
 * server's rendering of the catalogue pages (api/src/http/ssr.ts), without the service worker.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root,
  publicDir: path.join(root, 'public'),
  envDir: repo,
  define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(appVersion) },
  build: isSsrBuild
    ? {
        outDir: path.join(repo, 'dist-ssr'),
        emptyOutDir: true,
        sourcemap: false,
        copyPublicDir: false,
        rollupOptions: { input: path.join(root, 'src/entry-server.tsx'), ...quietDirectives },
      }
    : {
        outDir: path.join(repo, 'dist'),
        emptyOutDir: true,
        sourcemap: false,
        chunkSizeWarningLimit: 900,
        // The chunks a page needs are named in its chunk's imports instead (hoistTransitiveImports above).
        modulePreload: false,
        rollupOptions: { ...quietDirectives, output: { codeSplitting: codeSplitting() } },
      },
  resolve: {
    alias: [
      { find: '@locales', replacement: path.join(repo, 'locales') },
      { find: '@contract', replacement: path.join(repo, 'api/contract') },
    ],
  },
  // The server entry bundles its dependencies (React DOM's server renderer included): dist-ssr/ runs on its own.
  ssr: isSsrBuild ? { noExternal: true } : undefined,
  plugins: [
    // JSX for React's runtime, and Fast Refresh under `npm run dev` (a component edited keeps its state).
    react(),
    localeAreas(),
    sonnerBridge(),
    !isSsrBuild && hoistTransitiveImports(),
    !isSsrBuild && precompressAssets(),
    tailwindcss(),
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: path.join(repo, 'sw'),
        filename: 'sw.ts',
        injectRegister: false,
        registerType: 'prompt',
        manifest: {
          id: '/',
          name: 'Nagai — Indian jewellery, live from the shop',
          short_name: 'Nagai',
          description:
            'Shop Indian jewellery from trusted jewellers, and step into their shop on a live video call.',
          lang: 'en',
          dir: 'ltr',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          orientation: 'any',
          theme_color: THEME,
          background_color: BACKGROUND,
          categories: ['shopping', 'lifestyle'],
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
          shortcuts: [
            {
              name: 'Marketplace',
              short_name: 'Marketplace',
              description: 'Browse jewellery from every shop',
              url: '/marketplace',
              icons: [{ src: '/icons/shortcut-marketplace-96.png', sizes: '96x96', type: 'image/png' }],
            },
            {
              name: 'Seller dashboard',
              short_name: 'Dashboard',
              description: 'Your shop, orders and calls',
              url: '/seller/dashboard',
              icons: [{ src: '/icons/shortcut-dashboard-96.png', sizes: '96x96', type: 'image/png' }],
            },
          ],
        },
        // The manifest link is written into index.html by the plugin; icons come from public/.
        includeManifestIcons: false,
        injectManifest: {
          globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
          // The Twilio SDK is loaded only for a Twilio call and never precached.
          globIgnores: [
            '**/twilio-video*',
            // The try-on's code comes with its first use, as its face model does, and is kept from then on in a
            // cache of its own (sw/sw.ts; the precache stays within its 1.6 MB budget; docs/product-rules.md §16).
            ...TRYON_CODE_CHUNKS.map((name) => `**/assets/${name}-*`),
            // A seller's try-on image and its preview are uploaded with the product: no use offline.
            '**/try-on-image-field-*',
            '**/sample-preview-*',
            // The admin's screens are for the platform's staff at a desk, online: no customer's or jeweller's
            // phone should store them.
            '**/admin-*',
            // The jeweller's catalogue and order management change data on the server and do nothing offline
            // (the dashboard, the call layer and the ringing stay precached).
            '**/products-page-*',
            '**/seller-orders-page-*',
            // Family in a call happens only in a live call (§21), and changing one's number or profile needs the
            // server (a code by SMS, a save): neither does anything offline.
            '**/family-in-call-*',
            '**/family-join-page-*',
            '**/mobile-settings-page-*',
            '**/edit-profile-dialog-*',
            // Launcher-size icons are fetched by the browser when installing, not needed by the offline shell.
            'icons/icon-512.png',
            'icons/icon-maskable-512.png',
            'icons/apple-touch-icon-180.png',
          ],
          maximumFileSizeToCacheInBytes: 1_500_000,
        },
        devOptions: { enabled: false },
      }),
  ],
  server: {
    port: 5173,
    host: '127.0.0.1',
    proxy: {
      '/_api': { target: apiTarget, changeOrigin: false },
      '/media': { target: apiTarget, changeOrigin: false },
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
}));
