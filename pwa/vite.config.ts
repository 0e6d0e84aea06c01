import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const root = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(root, '..');
const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };
// Each build is a new app version: the persisted query cache is busted by it (features/pwa).
const appVersion = `${pkg.version}+${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;

const THEME = '#7a1f2b';
const BACKGROUND = '#fffdf8';

export default defineConfig({
  root,
  publicDir: path.join(root, 'public'),
  envDir: repo,
  define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(appVersion) },
  build: {
    outDir: path.join(repo, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  resolve: {
    alias: { '@locales': path.join(repo, 'locales'), '@contract': path.join(repo, 'api/contract') },
  },
  plugins: [
    react(),
    tailwindcss(),
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
});
