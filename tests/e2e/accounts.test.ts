import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, loginThroughForm, registerViaApi, uniqueEmail } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, newContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const header = (page: Page) => page.locator('header');
const mainNav = (page: Page) => header(page).getByRole('navigation', { name: 'Main' });

async function logout(page: Page, name: RegExp) {
  await header(page).getByRole('button', { name }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await expectAccessible(page, 'user menu');
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await header(page).getByRole('link', { name: 'Login' }).waitFor();
}

describe('each role logs in through its own page', () => {
  const cases = [
    {
      role: 'customer',
      login: '/customer/login',
      lands: '/marketplace',
      nav: ['Browse', 'My Orders', 'Call History'],
      hrefs: ['/marketplace', '/orders', '/call-history'],
    },
    {
      role: 'seller',
      login: '/seller/login',
      lands: '/seller/dashboard',
      nav: ['Dashboard', 'Profile', 'Products', 'Orders', 'History'],
      hrefs: [
        '/seller/dashboard',
        '/seller/profile',
        '/seller/products',
        '/seller/orders',
        '/seller/history',
      ],
    },
    {
      role: 'admin',
      login: '/admin/login',
      lands: '/admin/dashboard',
      nav: ['Dashboard', 'Sellers'],
      hrefs: ['/admin/dashboard', '/admin/sellers'],
    },
  ] as const;

  for (const c of cases) {
    it(`${c.role}: ${c.login} → ${c.lands}, role navigation, user menu, logout`, async () => {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.goto(c.login);
      await page.getByRole('tab', { name: 'Log In', selected: true }).waitFor();
      await expectAccessible(page, c.login);
      await loginThroughForm(page, DEMO_ACCOUNTS[c.role]);
      await page.waitForURL((u) => u.pathname === c.lands);

      const links = mainNav(page).getByRole('link');
      expect(await links.allTextContents()).toEqual([...c.nav]);
      expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([...c.hrefs]);

      // The user menu: initials, display name and role; Edit Profile and Logout.
      const trigger = header(page).getByRole('button', { name: /Account menu for/ });
      const { user } = await (await context.request.get('/_api/auth/session')).json();
      const expected = Array.from((user.displayName as string).replace(/\s+/g, ''))
        .slice(0, 2)
        .join('')
        .toUpperCase();
      expect(await trigger.locator('span[aria-hidden="true"]').first().textContent()).toBe(expected);
      await trigger.click();
      const menu = page.getByRole('menu');
      await expect.poll(() => menu.textContent()).toContain(c.role[0].toUpperCase() + c.role.slice(1));
      await expect
        .poll(() => menu.getByRole('menuitem').allTextContents())
        .toEqual(['Edit Profile', 'Mobile number and updates', 'Logout']);
      await page.keyboard.press('Escape');
      await expectAccessible(page, `${c.lands} as ${c.role}`);

      await logout(page, /Account menu for/);
      expect(await mainNav(page).getByRole('link', { name: 'My Orders' }).count()).toBe(0);
      // Signed out for real: the session says so after a reload.
      await page.reload();
      await header(page).getByRole('link', { name: 'Login' }).waitFor();
      await context.close();
    });
  }

  it('a wrong password shows the server message; a signed-in visitor of a login page is sent on', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login?redirect=%2Fcall-history');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await expectAccessible(page, '/login with errors');
    await loginThroughForm(page, DEMO_ACCOUNTS.customer, 'wrong-password');
    await page.getByRole('alert').getByText('Invalid email or password.').waitFor();
    await loginThroughForm(page, DEMO_ACCOUNTS.customer);
    await page.waitForURL((u) => u.pathname === '/call-history');
    await page.goto('/customer/login');
    await page.waitForURL((u) => u.pathname === '/marketplace');
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === '/marketplace');
    await context.close();
  });
});

describe('registration', () => {
  it('a new customer sees each validation message, then signs up and lands on /marketplace', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/customer/login');
    await page.getByRole('tab', { name: 'Create Account' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('register');
    const form = page.getByRole('tabpanel', { name: 'Create Account' });
    await form.getByText(/at least 8 characters, with an uppercase letter/i).waitFor();
    await form.getByText(/can include spaces, emojis and special characters/i).waitFor();

    await form.getByRole('button', { name: 'Create Account' }).click();
    await form.getByText('Name is required').waitFor();
    await form.getByText('Invalid email address.').waitFor();
    await form.getByText('Password must be at least 8 characters').waitFor();
    await expectAccessible(page, 'registration with errors');

    const email = uniqueEmail('new-customer');
    await form.getByLabel('Full Name').fill('Meenakshi Sundaram');
    await form.getByLabel('Display Name').fill('Meena 💎');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('Secret#2026');
    await form.getByLabel('Confirm Password').fill('Secret#2025');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await form.getByText('Passwords do not match').waitFor();
    await form.getByLabel('Confirm Password').fill('Secret#2026');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((u) => u.pathname === '/marketplace');
    await header(page).getByRole('button', { name: 'Account menu for Meena 💎' }).waitFor();

    // The same email again, from a fresh browser: the product-rule already-registered text.
    const other = await newContext(browser);
    const again = await other.newPage();
    await again.goto('/customer/login?tab=register');
    const form2 = again.getByRole('tabpanel', { name: 'Create Account' });
    await form2.getByLabel('Display Name').fill('Meena');
    await form2.getByLabel('Email').fill(email);
    await form2.getByLabel('Password', { exact: true }).fill('Secret#2026');
    await form2.getByLabel('Confirm Password').fill('Secret#2026');
    await form2.getByRole('button', { name: 'Create Account' }).click();
    await form2
      .getByRole('alert')
      .getByText('This email is already registered. Please try logging in instead.')
      .waitFor();
    await other.close();
    await context.close();
  });

  it('Create Account on /seller/login makes a seller and goes to /seller/profile/setup', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/seller/login');
    for (const feature of [
      'Live video calling',
      'Product management',
      'Your own online store',
      'Profile control',
    ])
      await page.getByRole('heading', { name: feature }).waitFor();
    await expectAccessible(page, '/seller/login');
    await page.getByRole('tab', { name: 'Create Account' }).click();
    const form = page.getByRole('tabpanel', { name: 'Create Account' });
    await form.getByLabel('Your Name').fill('Ravi Kumar');
    await form.getByLabel('Email').fill(uniqueEmail('new-seller'));
    await form.getByLabel('Password', { exact: true }).fill('Secret#2026');
    await form.getByLabel('Confirm Password').fill('Secret#2026');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((u) => u.pathname === '/seller/profile/setup');
    const session = await (await context.request.get('/_api/auth/session')).json();
    expect(session.user.role).toBe('seller');
    await context.close();
  });
});

describe('languages', () => {
  it('the switch shows Tamil on /customer/login, persists, and is absent on /seller/login', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/customer/login');
    await page.getByRole('heading', { name: 'Customer Portal' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await header(page).getByLabel('Language').selectOption('ta');
    await page.getByRole('heading', { name: 'வாடிக்கையாளர் பகுதி' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('ta');
    await page.getByRole('tab', { name: 'உள்நுழை' }).waitFor();
    await page.getByRole('tab', { name: 'கணக்கை உருவாக்கு' }).waitFor();
    // Messages are Tamil too.
    await page.getByRole('button', { name: 'உள்நுழை' }).click();
    await page.getByText('மின்னஞ்சல் தேவை').waitFor();
    await expectAccessible(page, '/customer/login in Tamil');

    await page.reload();
    await page.getByRole('heading', { name: 'வாடிக்கையாளர் பகுதி' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('ta');

    // Seller pages are English only, with no switch, whatever the visitor chose.
    await page.goto('/seller/login');
    await page.getByRole('heading', { name: 'Sell on Nagai' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByLabel('Language').count()).toBe(0);
    await page.goto('/admin/login');
    await page.getByRole('heading', { name: 'Admin Portal' }).waitFor();
    expect(await page.getByLabel('Language').count()).toBe(0);
    await context.close();
  });
});

describe('Edit Your Profile', () => {
  it('updates the display name with a toast, validates inline, says when nothing changed, traps focus', async () => {
    const context = await newContext(browser);
    const account = await registerViaApi(context, { displayName: 'Kavya Iyer' });
    const page = await context.newPage();
    await page.goto('/customer/login');
    await page.waitForURL((u) => u.pathname === '/marketplace');

    const openDialog = async () => {
      await header(page)
        .getByRole('button', { name: /Account menu for/ })
        .click();
      await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Your Profile' });
      await dialog.waitFor();
      return dialog;
    };

    // Nothing changed: the product-rule message, and the dialog closes.
    let dialog = await openDialog();
    expect(await dialog.getByLabel('Display Name').inputValue()).toBe('Kavya Iyer');
    expect(await dialog.getByLabel('Email').inputValue()).toBe(account.email);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('No changes were made.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // Focus stays inside the dialog while tabbing.
    dialog = await openDialog();
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByLabel('Current Password').waitFor();
    await expectAccessible(page, 'Edit Your Profile dialog');
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
      expect(inside, `focus left the dialog after ${i + 1} Tab presses`).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);

    // Inline validation from the contract's schemas.
    await dialog.getByLabel('Phone').fill('12');
    await dialog.getByLabel('New Password', { exact: true }).fill('short');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByText('Phone number must be at least 5 characters.').waitFor();
    await dialog.getByText('Current password is required').waitFor();
    await dialog.getByText('Password must be at least 8 characters long').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Reopened: filled from the user again, password section closed and empty.
    dialog = await openDialog();
    expect(await dialog.getByLabel('Phone').inputValue()).toBe('');
    expect(await dialog.getByLabel('Current Password').count()).toBe(0);
    await dialog.getByLabel('Display Name').fill('Kavya Raman');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await header(page).getByRole('button', { name: 'Account menu for Kavya Raman' }).waitFor();
    const session = await (await context.request.get('/_api/auth/session')).json();
    expect(session.user.displayName).toBe('Kavya Raman');

    // Password change, then the new password works.
    dialog = await openDialog();
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByLabel('Current Password').fill(account.password);
    await dialog.getByLabel('New Password', { exact: true }).fill('Fresh#Pass2026');
    await dialog.getByLabel('Confirm New Password').fill('Fresh#Pass2026');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Password changed successfully!').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('account protections in the app', () => {
  it('tells the owner of failed sign-ins until dismissed, and asks for the password to change the email', async () => {
    const context = await newContext(browser);
    const account = await registerViaApi(context, { displayName: 'Lalitha Devi' });
    const stranger = await newContext(browser);
    for (let i = 0; i < 2; i++) {
      const res = await stranger.request.post('/_api/auth/login_with_password', {
        data: { email: account.email, password: 'Wrong#Guess1' },
        headers: { Origin: baseUrl() },
      });
      expect(res.status()).toBe(401);
    }
    await stranger.close();

    const page = await context.newPage();
    await page.goto('/marketplace');
    const notice = page.getByTestId('login-notice');
    await notice.getByText(/^2 failed sign-in attempts since you last checked/).waitFor();
    await expectAccessible(page, 'failed sign-ins notice');
    await notice.getByRole('button', { name: 'Got it' }).click();
    await notice.waitFor({ state: 'detached' });
    const session = await (await context.request.get('/_api/auth/session')).json();
    expect(session.user.failedLogins).toBeNull();

    await header(page)
      .getByRole('button', { name: /Account menu for/ })
      .click();
    await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Your Profile' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Password (needed to change your email)').count()).toBe(0);
    const fresh = uniqueEmail('moved');
    await dialog.getByLabel('Email').fill(fresh);
    const password = dialog.getByLabel('Password (needed to change your email)');
    await password.waitFor();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByText('Enter your current password to change your email.').waitFor();
    await expectAccessible(page, 'email change needs the password');
    await password.fill(account.password);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    const after = await (await context.request.get('/_api/auth/session')).json();
    expect(after.user.email).toBe(fresh);
    await context.close();
  });
});

describe('phones (360 px)', () => {
  it('collapses the navigation into a menu and still logs in and out', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.goto('/customer/login');
    await expectAccessible(page, '/customer/login at 360 px');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await loginThroughForm(page, DEMO_ACCOUNTS.customer);
    await page.waitForURL((u) => u.pathname === '/marketplace');
    // The router renders a navigation in a transition: wait for the page, or the menu would close on it.
    await page.getByRole('heading', { name: 'Marketplace', level: 1 }).waitFor();
    expect(await mainNav(page).count()).toBe(0);
    await header(page).getByRole('button', { name: 'Open menu' }).click();
    const nav = mainNav(page);
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Browse', 'My Orders', 'Call History']);
    await expectAccessible(page, 'phone menu');
    await page.keyboard.press('Escape');
    expect(await mainNav(page).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await logout(page, /Account menu for/);
    await context.close();
  });

  it('every login page fits a 360 px screen without sideways scrolling', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    for (const p of ['/login', '/seller/login', '/admin/login', '/customer/login?tab=register']) {
      await page.goto(p);
      await page
        .getByRole('button', { name: /Log In|Create Account/ })
        .first()
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), p).toBeLessThanOrEqual(360);
    }
    await expectAccessible(page, '/customer/login?tab=register at 360 px');
    await context.close();
  });

  it('shows Not Found with a link home for unknown paths', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Not Found', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    await expectAccessible(page, 'Not Found');
    await context.close();
  });
});
