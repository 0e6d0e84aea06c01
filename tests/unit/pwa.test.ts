import type { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isIosSafari } from '../../pwa/src/features/pwa/install';
import { urlBase64ToUint8Array } from '../../pwa/src/features/push/api';
import { initI18n } from '../../pwa/src/lib/i18n';
import { assertOnline, isOfflineError, isOnline, OfflineError } from '../../pwa/src/lib/online';
import { createQueryClient } from '../../pwa/src/lib/query-client';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

function setOnline(value: boolean) {
  vi.stubGlobal('navigator', { onLine: value });
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('iOS install guidance', () => {
  it('is for Safari on iPhone and iPad only', () => {
    expect(isIosSafari(IPHONE_SAFARI)).toBe(true);
    expect(isIosSafari(IPAD_DESKTOP_MODE, 5)).toBe(true);
    expect(isIosSafari(IPAD_DESKTOP_MODE, 0)).toBe(false); // a real Mac
    expect(isIosSafari(IPHONE_CHROME)).toBe(false);
    expect(isIosSafari(ANDROID_CHROME)).toBe(false);
  });
});

describe('push keys', () => {
  it('decodes a base64url VAPID key to its 65 bytes', () => {
    const bytes = new Uint8Array(65).map((_, i) => (i * 37) % 256);
    const b64url = Buffer.from(bytes).toString('base64url');
    expect([...urlBase64ToUint8Array(b64url)]).toEqual([...bytes]);
  });
});

describe('offline actions', () => {
  it('assertOnline throws a translated, recognisable error only when offline', () => {
    setOnline(true);
    expect(isOnline()).toBe(true);
    expect(() => assertOnline()).not.toThrow();
    setOnline(false);
    expect(() => assertOnline()).toThrow('You are offline. Connect to the internet and try again.');
    try {
      assertOnline();
    } catch (err) {
      expect(isOfflineError(err)).toBe(true);
      expect(err).toBeInstanceOf(OfflineError);
    }
  });

  it('a mutation offline fails at once with the offline message, without calling the server', async () => {
    setOnline(false);
    const qc: QueryClient = createQueryClient();
    const mutationFn = vi.fn(async () => 'sent');
    const mutation = qc.getMutationCache().build(qc, { mutationFn });
    await expect(mutation.execute(undefined)).rejects.toThrow('You are offline');
    expect(mutationFn).not.toHaveBeenCalled();
    expect(mutation.state.status).toBe('error');
    expect(mutation.state.isPaused).toBe(false);
  });

  it('mutations marked offlineAllowed (logout) still run offline, and everything runs online', async () => {
    setOnline(false);
    const qc = createQueryClient();
    const local = qc.getMutationCache().build(qc, {
      mutationFn: async () => 'cleared locally',
      meta: { offlineAllowed: true },
    });
    await expect(local.execute(undefined)).resolves.toBe('cleared locally');
    setOnline(true);
    const online = qc.getMutationCache().build(qc, { mutationFn: async () => 'ok' });
    await expect(online.execute(undefined)).resolves.toBe('ok');
  });
});
