import type { BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { baseUrl } from './browser';

/** The demo accounts loaded on a fresh data dir (all with DEMO_PASSWORD). */
export const DEMO_ACCOUNTS = {
  customer: 'customer@nagai.test',
  seller: 'seller@nagai.test',
  admin: 'admin@nagai.test',
} as const;
/**
 * The demo accounts' password on the test servers: production refuses the published one, so the global setup
 * names a fresh one for each run (SEED_DEMO_PASSWORD) and provides it here.
 */
export const DEMO_PASSWORD = inject('demoPassword');

export type DemoRole = keyof typeof DEMO_ACCOUNTS;

/** A unique email for an account a test creates, so reruns and other files never collide. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

/**
 * Signs the context in through the API (fast; the UI login has its own tests). Later page loads in this
 * context are signed in. Sends Origin like a browser would, for the same-origin check.
 */
export async function signInViaApi(context: BrowserContext, email: string, password = DEMO_PASSWORD) {
  const res = await context.request.post('/_api/auth/login_with_password', {
    data: { email, password },
    headers: { Origin: baseUrl() },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { user: { id: number; displayName: string; role: string } }).user;
}

/** Creates a customer through the API and leaves the context signed in as them. */
export async function registerViaApi(
  context: BrowserContext,
  fields: { email?: string; password?: string; displayName?: string; role?: 'customer' | 'seller' } = {},
) {
  const body = {
    email: fields.email ?? uniqueEmail(),
    password: fields.password ?? 'Secret#2026',
    displayName: fields.displayName ?? 'Meena Raman',
    ...(fields.role ? { role: fields.role } : {}),
  };
  const res = await context.request.post('/_api/auth/register_with_password', {
    data: body,
    headers: { Origin: baseUrl() },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { ...body, user: ((await res.json()) as { user: { id: number } }).user };
}

/** Logs in through a login page's form (the Log In tab is the default). */
export async function loginThroughForm(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Email or mobile number', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).last().click();
}
