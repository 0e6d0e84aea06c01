import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES, API_ROUTES } from '../../api/contract/routes';
import { startTestApi, type TestApi } from '../support/api';

/**
 * The route table (api/contract/routes.ts) and the server agree: every route @koa/router has mounted has a
 * descriptor, and every descriptor is mounted, with the same method.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

/** `METHOD path` of every route in the app's routers (HEAD comes with GET). */
function mountedRoutes(): string[] {
  const found = new Set<string>();
  for (const mw of api.handle.app.middleware) {
    const router = (mw as { router?: { stack: { path: string; methods: string[] }[] } }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      for (const method of layer.methods) if (method !== 'HEAD') found.add(`${method} ${layer.path}`);
    }
  }
  return [...found].sort();
}

describe('route table', () => {
  it('has one descriptor for each mounted route, and mounts each descriptor', () => {
    const described = ALL_ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    expect(mountedRoutes()).toEqual(described);
  });

  it('names each method and path once', () => {
    const keys = ALL_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the rules that go together', () => {
    for (const [name, r] of Object.entries(API_ROUTES)) {
      // Only a public GET may be kept by the service worker or served from the catalogue cache.
      if (r.serviceWorker === 'network-first' || r.cache === 'catalogue') {
        expect([name, r.method, r.auth, r.cache, r.serviceWorker]).toEqual([
          name,
          'GET',
          'public',
          'catalogue',
          'network-first',
        ]);
      }
      // A GET has no body; a write has a body limit and a write cache class.
      if (r.method === 'GET') {
        expect([name, r.bodyLimit]).toEqual([name, 'none']);
        expect(['catalogue', 'private']).toContain(r.cache);
      } else {
        expect(['small', 'large']).toContain(r.bodyLimit);
        expect(['clears-catalogue', 'catalogue-neutral']).toContain(r.cache);
      }
      if (r.session === 'none') expect(r.path.startsWith('/_api/'), name).toBe(false);
      else expect(r.path.startsWith('/_api/'), name).toBe(true);
    }
  });
});
