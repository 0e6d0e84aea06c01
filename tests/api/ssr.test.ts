import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { loadConfig, type Config } from '../../api/src/config';
import { buildProduct, buildSeller } from '../factories';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * Server rendering of the public pages (api/src/http/ssr.ts) with the real server build (`npm test` builds
 * dist-ssr/ first), on both databases: what is rendered, what gets the shell, and the cap on renders at once.
 */

const SERVER_ENTRY = path.resolve(import.meta.dirname, '../../dist-ssr/entry-server.js');
const EMPTY_ROOT = '<div id="root"></div>';

interface Running {
  url: string;
  close(): Promise<void>;
}

let db: TestDatabase;

async function start(config: Partial<Config>): Promise<Running> {
  const handle = createApp({
    db: db.knex,
    dbKind: db.kind,
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, config),
    logger: pino({ level: 'silent' }),
    serveStatic: true,
  });
  const server = http.createServer(handle.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.background.stop();
    },
  };
}

const html = async (url: string) => (await fetch(url)).text();

beforeAll(async () => {
  expect(fs.existsSync(SERVER_ENTRY), 'the server build is missing: run npm run build').toBe(true);
  db = await createTestDatabase();
  const seller = await buildSeller(db.knex, { isApproved: true });
  for (let i = 0; i < 3; i++) await buildProduct(db.knex, seller.id, { name: `Rendered Jhumka ${i}` });
});
afterAll(async () => {
  await db?.close();
});

describe('server-rendered pages', () => {
  it('renders the marketplace with its products, and serves the shell when SSR is off', async () => {
    const on = await start({});
    const off = await start({ ssrDir: undefined });
    try {
      const page = await html(`${on.url}/marketplace`);
      expect(page).not.toContain(EMPTY_ROOT);
      for (let i = 0; i < 3; i++) expect(page).toContain(`Rendered Jhumka ${i}`);
      expect(await html(`${off.url}/marketplace`)).toContain(EMPTY_ROOT);
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });

  it('serves the shell beyond SSR_MAX_RENDERS pages at once, and renders again once they are done', async () => {
    const one = await start({ ssrMaxRenders: 1 });
    try {
      // Different addresses, so no answer is shared: each would be its own render.
      const pages = await Promise.all(
        Array.from({ length: 8 }, (_, i) => html(`${one.url}/marketplace?sortBy=price-asc&page=${i + 1}`)),
      );
      const shells = pages.filter((p) => p.includes(EMPTY_ROOT)).length;
      expect(shells, 'some requests got the shell').toBeGreaterThan(0);
      expect(shells, 'some requests were rendered').toBeLessThan(pages.length);
      // Nothing is left counted: one at a time, every page renders.
      for (let i = 0; i < 3; i++) {
        expect(await html(`${one.url}/marketplace?sortBy=rating&page=${i + 1}`)).not.toContain(EMPTY_ROOT);
      }
    } finally {
      await one.close();
    }
  });
});
