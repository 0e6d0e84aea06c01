import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../api/src/config';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * Server rendering of the public pages (api/src/http/ssr.ts) with the real server build (`npm test` builds
 * dist-ssr/ first), on both databases: what is rendered, what gets the shell, and the cap on renders at once.
 */

const SERVER_ENTRY = path.resolve(import.meta.dirname, '../../dist-ssr/entry-server.js');
const EMPTY_ROOT = '<div id="root"></div>';

// Three servers on one database: server rendering as deployed, turned off, and one render at a time.
let db: TestDatabase;
let on: TestApi;
let off: TestApi;
let one: TestApi;
const start = (config: Partial<Config>) => startTestApi({ db, config, serveStatic: true });

const html = async (url: string) => (await fetch(url)).text();

beforeAll(async () => {
  expect(fs.existsSync(SERVER_ENTRY), 'the server build is missing: run npm run build').toBe(true);
  db = await createTestDatabase();
  const seller = await buildSeller(db.knex, { isApproved: true });
  for (let i = 0; i < 3; i++) await buildProduct(db.knex, seller.id, { name: `Rendered Jhumka ${i}` });
  [on, off, one] = await Promise.all([start({}), start({ ssrDir: undefined }), start({ ssrMaxRenders: 1 })]);
});
afterAll(async () => {
  // Each close also closes the shared database; the later ones find it closed already.
  for (const api of [on, off, one]) await api?.close().catch(() => undefined);
});

describe('server-rendered pages', () => {
  it('renders the marketplace with its products, and serves the shell when SSR is off', async () => {
    const page = await html(`${on.url}/marketplace`);
    expect(page).not.toContain(EMPTY_ROOT);
    for (let i = 0; i < 3; i++) expect(page).toContain(`Rendered Jhumka ${i}`);
    expect(await html(`${off.url}/marketplace`)).toContain(EMPTY_ROOT);
  });

  it('serves the shell beyond SSR_MAX_RENDERS pages at once, and renders again once they are done', async () => {
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
  });
});
