import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../api/contract/accounts';
import {
  followSession,
  KEPT_SESSION_KEY,
  keptSessionUser,
  SESSION_KEY,
  sessionQuery,
} from '../../pwa/src/lib/session';

/** The person signed in stays signed in on the device through an offline reload (docs/product-rules.md §20.6). */

class MemoryStorage {
  map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

const meena = { id: 7, role: 'customer', displayName: 'Meena', email: 'meena@example.in' } as User;
let storage: MemoryStorage;
let win: EventTarget;
let answer: () => Promise<Response>;
const fetchMock = vi.fn(() => answer());

beforeEach(() => {
  storage = new MemoryStorage();
  win = new EventTarget();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('window', win);
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

const online = (user: User | null) => () =>
  Promise.resolve(
    new Response(JSON.stringify({ user }), { headers: { 'Content-Type': 'application/json' } }),
  );
const offline = () => Promise.reject(new TypeError('Failed to fetch'));

function client() {
  const c = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  followSession(c);
  return c;
}

describe('the session kept on the device', () => {
  it('follows login, every answer of the server and logout', async () => {
    const c = client();
    // (The query cache tells its listeners in a batch, just after the change.)
    c.setQueryData(SESSION_KEY, { user: meena });
    await vi.waitFor(() => expect(keptSessionUser()).toEqual(meena));
    c.setQueryData(SESSION_KEY, { user: null });
    await vi.waitFor(() => expect(storage.getItem(KEPT_SESSION_KEY)).toBeNull());
    // The server's answer (asked again: the session query is otherwise kept indefinitely).
    answer = online(meena);
    await c.fetchQuery({ ...sessionQuery(), staleTime: 0 });
    await vi.waitFor(() => expect(keptSessionUser()).toEqual(meena));
  });

  it('answers with the kept person when the network fails, and asks the server again once online', async () => {
    const c = client();
    answer = online(meena);
    await c.fetchQuery(sessionQuery());
    await vi.waitFor(() => expect(keptSessionUser()).toEqual(meena));
    // Offline reload: a new client, the request fails before any answer.
    const reloaded = client();
    answer = offline;
    expect(await reloaded.fetchQuery(sessionQuery())).toEqual({ user: meena });
    // The header watches it.
    const stop = new QueryObserver(reloaded, sessionQuery()).subscribe(() => undefined);
    // Online again: the server is asked, and its answer wins (signed out elsewhere meanwhile).
    answer = online(null);
    const calls = fetchMock.mock.calls.length;
    win.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
    await vi.waitFor(() => expect(reloaded.getQueryData(SESSION_KEY)).toEqual({ user: null }));
    await vi.waitFor(() => expect(keptSessionUser()).toBeNull());
    stop();
  });

  it('is no answer for a visitor offline, nor for a server error', async () => {
    answer = offline;
    await expect(client().fetchQuery(sessionQuery())).rejects.toMatchObject({ status: 0 });
    storage.setItem(KEPT_SESSION_KEY, JSON.stringify(meena));
    answer = () => Promise.resolve(new Response('{"error":"Internal"}', { status: 500 }));
    await expect(client().fetchQuery(sessionQuery())).rejects.toMatchObject({ status: 500 });
  });
});
