import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import ta from '../../locales/ta.json';
import { expectAccessible, twilioUrl } from './support/browser';
import { callPhones, jewellerAndCustomer } from './support/call-phones';

/**
 * A guest who signs in (issue #52, docs/product-rules.md §21.2) on a Tamil phone at 360×640: the join page
 * offers "Sign in with your mobile number", the code comes from the Twilio test double, and the guest asks to
 * join under the account's first name; the jeweller admits them. (The call's own customer or jeweller is
 * refused by the server: tests/api/call-family-signin.test.ts. In a browser their app picks their live call
 * up on any page, the join page included.)
 */
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';
const { phone } = callPhones();

const tr = (text: string, vars: Record<string, string> = {}) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');

/** The join page fits the phone (nothing scrolls sideways) and passes axe. */
async function expectPhoneFit(page: Page, label: string): Promise<void> {
  await expectAccessible(page, label);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide, `${label}: scrolls sideways`).toBeLessThanOrEqual(0);
}

async function codeSentTo(e164: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(async () => {
      const res = await fetch(`${twilioUrl()}/_double/codes?to=${encodeURIComponent(e164)}`);
      code = ((await res.json()) as { code: string | null }).code;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

describe('a guest who signs in', () => {
  it('signs in by a mobile code on the Tamil join page and asks under the first name; the jeweller admits', async () => {
    const F = ta.family.join;
    const M = ta.auth.mobile;
    const { seller, customer } = await jewellerAndCustomer(phone, {
      first: 'Kavya',
      store: STORE,
      shop: SHOP,
    });
    await customer.page.getByRole('button', { name: 'Video Call', exact: true }).click();
    const ringing = seller.page.getByRole('alertdialog');
    await ringing.waitFor({ timeout: 20_000 });
    await ringing.getByRole('button', { name: 'Accept' }).click();
    await customer.page.getByRole('button', { name: 'Invite family' }).click();
    const dialog = customer.page.getByRole('dialog', { name: 'Invite family to this call' });
    const path = new URL(await dialog.getByTestId('family-link').inputValue()).pathname;
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The guest's Tamil phone: the join page offers signing in beside the name.
    const guest = await phone('ta');
    await guest.page.goto(path);
    await guest.page.getByRole('heading', { name: tr(F.title, { shop: SHOP }) }).waitFor();
    await guest.page.getByRole('textbox', { name: F.name, exact: true }).waitFor();
    await guest.page.getByRole('button', { name: F.signIn }).click();
    const digits = `7${String(Date.now()).slice(-9)}`;
    await guest.page.getByRole('textbox', { name: M.numberLabel, exact: true }).fill(digits);
    await expectPhoneFit(guest.page, 'join page, mobile number (ta, 360×640)');
    await guest.page.getByRole('button', { name: M.sendCode }).click();
    const codeField = guest.page.getByRole('textbox', { name: M.codeLabel, exact: true });
    await codeField.fill(await codeSentTo(`+91${digits}`));
    await guest.page.getByRole('button', { name: M.verify }).click();
    // A new number: the account's name (the join page's own name field is hidden meanwhile), then signed in.
    await guest.page.getByRole('button', { name: M.create }).waitFor();
    expect(await guest.page.getByRole('textbox', { name: F.name, exact: true }).count()).toBe(1);
    await guest.page
      .getByRole('textbox', { name: ta.auth.fields.yourName, exact: true })
      .fill('மீனாட்சி சுந்தரம்');
    await guest.page.getByRole('button', { name: M.create }).click();

    // Signed in: "Ask to join as மீனாட்சி" (the first name only), the name field kept for another name.
    const askAs = guest.page.getByRole('button', { name: tr(F.askAs, { name: 'மீனாட்சி' }), exact: true });
    await askAs.waitFor({ timeout: 10_000 });
    await guest.page.getByText(tr(F.signedInAs, { name: 'மீனாட்சி' })).waitFor();
    await guest.page.getByRole('textbox', { name: F.otherName, exact: true }).waitFor();
    await expectPhoneFit(guest.page, 'join page, signed in (ta, 360×640)');
    await askAs.click();
    await guest.page.getByTestId('guest-waiting').waitFor();

    // The jeweller sees the first name, and lets the guest in.
    const requests = seller.page.getByTestId('family-requests');
    await requests.getByText('மீனாட்சி', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await requests.getByText('சுந்தரம்').count()).toBe(0);
    await requests.getByRole('button', { name: 'Admit மீனாட்சி' }).click();
    await guest.page.getByRole('button', { name: ta.family.leave }).waitFor({ timeout: 20_000 });
  }, 180_000);
});
