import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

describe('platform', () => {
  it('answers /healthz once the database is reachable', async () => {
    const res = await api.client().get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' });
  });

  it('answers unknown API paths with a JSON 404 in the error shape', async () => {
    const res = await api.client().get('/_api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'This API endpoint does not exist.', code: 'route_not_found' });
  });

  it('sends security headers on API responses', async () => {
    const res = await api.client().get('/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('database driver', () => {
  it('answers update and delete with the affected row count', async () => {
    const db = api.db.knex;
    await db.raw('create table count_check (id int)');
    await db('count_check').insert([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await db('count_check').where('id', '<', 3).update({ id: 9 })).toBe(2);
    expect(await db('count_check').where({ id: 9 }).delete()).toBe(2);
    expect(await db('count_check').where({ id: 42 }).delete()).toBe(0);
  });
});
