import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import ta from '../../locales/ta.json';
import { baseUrl, expectAccessible } from './support/browser';
import { callPhones, jewellerAndCustomer, PHONE, remoteVideoPlays } from './support/call-phones';
import {
  clickButton,
  explained,
  fillByLabel,
  firefoxPage,
  launchFirefox,
  waitForText,
  type FirefoxBrowser,
  type FirefoxPage,
} from './support/firefox';

/**
 * Family in the call (issue #52, docs/product-rules.md §21), end to end in real browsers over loopback: a
 * customer and the demo jeweller in a call, the customer invites two guests by link (the second on Firefox
 * ESR: a guest's phone need not run the jeweller's engine), the jeweller admits each, and everyone sees
 * everyone's video (six connections for four people); a piece shown and a photo sent reach all, a guest's "I like this one"
 * reaches the customer and the jeweller, a guest leaving leaves the others connected, and the customer's end
 * ends the guests' part with a message.
 */
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';
const { phone } = callPhones();

// One Firefox ESR for the file (tests/e2e/support/firefox.ts); each guest on it gets a fresh context.
let firefox: FirefoxBrowser;
const firefoxContexts = new Set<{ close(): Promise<void> }>();
beforeAll(async () => {
  firefox = await launchFirefox();
});
afterEach(async () => {
  for (const c of firefoxContexts) await c.close().catch(() => undefined);
  firefoxContexts.clear();
});
afterAll(async () => firefox?.close());

/** Bound on the wait for a video to play in a loaded 2-core machine's browsers (a give-up wait). */
const VIDEO_WAIT_MS = 20_000;

/**
 * In the page, in either engine: the parties whose tile's video is playing, frames advancing (one's own tile
 * left out).
 */
async function tilesPlayingInPage(): Promise<string[]> {
  const tiles = [...document.querySelectorAll<HTMLElement>('[data-testid="family-tile"]:not([data-self])')];
  const at = tiles.map((t) => t.querySelector('video')!.currentTime);
  await new Promise((r) => setTimeout(r, 600));
  return tiles
    .filter((t, i) => {
      const v = t.querySelector('video')!;
      return v.videoWidth > 0 && !v.paused && v.currentTime > at[i]!;
    })
    .map((t) => t.dataset.party!);
}

/** In the page, in either engine: the guest's list shows a photo under `alt`, its image loaded. */
function photoLoaded(alt: string): boolean {
  const img = [...document.querySelectorAll<HTMLImageElement>('[data-testid="guest-photo"] img')].find(
    (i) => i.alt === alt,
  );
  return !!img && img.complete && img.naturalWidth > 0;
}

/** A Chromium phone's page, or a Firefox one (puppeteer's page, whose evaluate takes the same function). */
type AnyPage = Page | { firefox: FirefoxPage };
const playingTiles = (page: AnyPage): Promise<string[]> =>
  'firefox' in page ? page.firefox.evaluate(tilesPlayingInPage) : page.evaluate(tilesPlayingInPage);

async function expectTilesPlaying(page: AnyPage, parties: string[], label: string): Promise<void> {
  const deadline = Date.now() + VIDEO_WAIT_MS;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    seen = await playingTiles(page);
    if (parties.every((p) => seen.includes(p))) return;
  }
  throw new Error(`${label}: tiles playing ${JSON.stringify(seen)}, expected ${JSON.stringify(parties)}`);
}

/** No element is wider than the phone's screen (nothing scrolls sideways at 360 px). */
async function expectNoSidewaysScroll(page: Page, label: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide, label).toBeLessThanOrEqual(0);
}

const tr = (text: string, vars: Record<string, string> = {}) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
const TAMIL = /[\u0B80-\u0BFF]/;
/** Names on a whole page that stay as they are: the shop's, and English in the language choice (its own name). */
const PAGE_NAMES = [SHOP, 'English'];

/**
 * Every accessible name in `scope` (Playwright's accessibility tree: buttons, links, fields, regions,
 * headings, dialogs, images) is in Tamil script, but for the names of things (`names`: the shop, the pieces,
 * a person), which are not translated.
 */
async function expectTamilNames(scope: Locator, names: string[], label: string): Promise<void> {
  const tree = await scope.ariaSnapshot();
  const named = [...tree.matchAll(/^\s*- ([a-z]+) "((?:[^"\\]|\\.)*)"/gm)].map((m) => ({
    role: m[1]!,
    name: m[2]!.replace(/\\(.)/g, '$1'),
  }));
  expect(named.length, `${label}: names read`).toBeGreaterThan(0);
  const english = named.filter((n) => !TAMIL.test(n.name) && !names.includes(n.name));
  expect(english, `${label}: names not in Tamil`).toEqual([]);
}

/**
 * Every control in `scope` can be used on the 360×640 phone: scrolled to, it lies wholly on the screen,
 * nothing covers its middle (a tap reaches it) and its label is shown whole (no ellipsis, nothing clipped).
 */
async function expectControlsUsable(scope: Locator, label: string): Promise<void> {
  const problems = await scope.evaluate((root, screen) => {
    const selector = 'button, a[href], input, select, textarea';
    const controls = [root as HTMLElement, ...root.querySelectorAll<HTMLElement>(selector)].filter(
      (el) =>
        el.matches(selector) &&
        el.getClientRects().length > 0 &&
        getComputedStyle(el).visibility !== 'hidden',
    );
    const found: string[] = [];
    for (const el of controls) {
      // At once: the page scrolls smoothly, and the box is read right after.
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      const r = el.getBoundingClientRect();
      const name =
        (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() || el.outerHTML.slice(0, 60);
      if (r.left < 0 || r.top < 0 || r.right > screen.width || r.bottom > screen.height)
        found.push(`${name}: off the screen (${Math.round(r.left)}..${Math.round(r.right)} px)`);
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(hit === el || el.contains(hit) || (el instanceof HTMLInputElement && hit.contains(el))))
        found.push(`${name}: covered`);
      if (el instanceof HTMLInputElement) continue;
      for (const part of [el, ...el.querySelectorAll<HTMLElement>('*')]) {
        const style = getComputedStyle(part);
        if (
          part.scrollWidth > part.clientWidth + 1 ||
          style.textOverflow === 'ellipsis' ||
          (style.overflow === 'hidden' && part.scrollHeight > part.clientHeight + 1)
        )
          found.push(`${name}: label cut (${part.tagName})`);
      }
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    return found;
  }, PHONE);
  expect(problems, label).toEqual([]);
}

async function inviteLink(customer: Page): Promise<string> {
  await customer.getByRole('button', { name: 'Invite family' }).click();
  const dialog = customer.getByRole('dialog', { name: 'Invite family to this call' });
  const link = dialog.getByTestId('family-link');
  await link.waitFor();
  const url = await link.inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  return new URL(url).pathname;
}

/** A guest on Firefox ESR at a phone's size opens the link, gives a name and asks to join. */
async function firefoxGuestJoins(path: string, name: string): Promise<FirefoxPage> {
  const { context, page } = await firefoxPage(firefox, baseUrl(), { mobile: true });
  firefoxContexts.add(context);
  await page.goto(`${baseUrl()}${path}`);
  await waitForText(page, `Join the video call at ${SHOP}`);
  await fillByLabel(page, 'Your name', name);
  await clickButton(page, 'Ask to join');
  await page.waitForSelector('[data-testid="guest-waiting"]');
  return page;
}

async function guestJoins(page: Page, path: string, name: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { name: `Join the video call at ${SHOP}` }).waitFor();
  await expectAccessible(page, `guest join page (${name})`);
  await expectNoSidewaysScroll(page, `guest join page (${name})`);
  await page.getByRole('textbox', { name: 'Your name' }).fill(name);
  await page.getByRole('button', { name: 'Ask to join' }).click();
  await page.getByTestId('guest-waiting').waitFor();
}

describe('family in the call', () => {
  it('two guests invited and admitted, everyone sees everyone, a piece shown and a like reach all, leaving is clean', async () => {
    const { seller, customer } = await jewellerAndCustomer(phone, {
      first: 'Kavya',
      store: STORE,
      shop: SHOP,
    });
    await customer.page.getByRole('button', { name: 'Video Call', exact: true }).click();
    await customer.page.locator('[data-call-id]').waitFor();
    const callId = Number(await customer.page.locator('[data-call-id]').getAttribute('data-call-id'));
    const ringing = seller.page.getByRole('alertdialog');
    await ringing.waitFor({ timeout: 20_000 });
    await ringing.getByRole('button', { name: 'Accept' }).click();
    await Promise.all([remoteVideoPlays(seller.page), remoteVideoPlays(customer.page)]);

    // The first guest: the link, the name, the jeweller's Admit.
    const amma = await phone();
    const first = await inviteLink(customer.page);
    expect(first).toMatch(/^\/family\/[A-Za-z0-9_-]{43}$/);
    await guestJoins(amma.page, first, 'Amma');
    const requests = seller.page.getByTestId('family-requests');
    await requests.getByText('Amma').waitFor({ timeout: 10_000 });
    await expectAccessible(seller.page, 'call with a guest asking (jeweller)');
    const admitAt = Date.now();
    await requests.getByRole('button', { name: 'Admit Amma' }).click();
    const customerParty = `u${await customer.page.evaluate(async () => {
      const r = await fetch('/_api/auth/session');
      return ((await r.json()) as { user: { id: number } }).user.id;
    })}`;
    const sellerParty = `u${await seller.page.evaluate(async () => {
      const r = await fetch('/_api/auth/session');
      return ((await r.json()) as { user: { id: number } }).user.id;
    })}`;
    await expectTilesPlaying(
      amma.page,
      [customerParty, sellerParty],
      'Amma sees the customer and the jeweller',
    );
    console.log(`Admit → the guest sees both videos: ${Date.now() - admitAt} ms (browser test, polled)`);
    const ammaParty = (await amma.page
      .locator('[data-testid="family-tile"][data-self]')
      .getAttribute('data-party'))!;
    await expectAccessible(amma.page, 'guest in the call');
    await expectNoSidewaysScroll(amma.page, 'guest in the call');

    // The second guest, on Firefox ESR.
    const akka = { firefox: await firefoxGuestJoins(await inviteLink(customer.page), 'Akka') };
    const akkaAdmitAt = Date.now();
    await requests.getByRole('button', { name: 'Admit Akka' }).click();
    await expectTilesPlaying(akka, [customerParty, sellerParty], 'Akka sees the customer and the jeweller');
    console.log(`Admit → the Firefox guest sees both videos: ${Date.now() - akkaAdmitAt} ms (browser test)`);
    await customer.page.getByTestId('family-tile').nth(1).waitFor({ timeout: 10_000 });
    const guestParties = await customer.page
      .getByTestId('family-tile')
      .evaluateAll((tiles) => tiles.map((t) => (t as HTMLElement).dataset.party!));
    expect(guestParties).toHaveLength(2);
    const akkaParty = guestParties.find((p) => p !== ammaParty)!;
    // Everyone sees everyone: four people, each three videos.
    await Promise.all([
      expectTilesPlaying(customer.page, guestParties, 'the customer sees both guests'),
      expectTilesPlaying(seller.page, guestParties, 'the jeweller sees both guests'),
      expectTilesPlaying(amma.page, [customerParty, sellerParty, akkaParty], 'Amma sees everyone'),
      expectTilesPlaying(akka, [customerParty, sellerParty, ammaParty], 'Akka sees everyone'),
      remoteVideoPlays(customer.page),
      remoteVideoPlays(seller.page),
    ]);
    await expectAccessible(customer.page, 'call with two guests (customer)');
    await expectNoSidewaysScroll(customer.page, 'call with two guests (customer)');

    // The jeweller shows a piece: it reaches the customer and both guests.
    const shown = await seller.page.evaluate(async (id) => {
      const res = await fetch(`/_api/call/products?callId=${id}`);
      const body = (await res.json()) as { products: { id: number; name: string }[] };
      return body.products[0] ?? null;
    }, callId);
    expect(shown).not.toBeNull();
    const share = await seller.context.request.post('/_api/call/share', {
      data: { callId, productIds: [shown!.id] },
      headers: { Origin: baseUrl() },
    });
    expect(share.status()).toBe(201);
    await customer.page
      .getByTestId('shared-product')
      .getByText(shown!.name)
      .first()
      .waitFor({ timeout: 10_000 });
    await amma.page.getByTestId('guest-piece').getByText(shown!.name).waitFor({ timeout: 10_000 });
    await waitForText(akka.firefox, shown!.name, { within: '[data-testid="guest-piece"]', timeout: 10_000 });

    // The jeweller sends a photo: both guests see it, loaded (fetched with the guest's token).
    const jpeg = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#b8862b' } })
      .jpeg()
      .toBuffer();
    const sent = await seller.context.request.post('/_api/call/photo', {
      data: { callId, image: `data:image/jpeg;base64,${jpeg.toString('base64')}` },
      headers: { Origin: baseUrl() },
    });
    expect(sent.status()).toBe(201);
    const photoAlt = `Photo 1 from ${SHOP}`;
    await Promise.all([
      amma.page.waitForFunction(photoLoaded, photoAlt, { timeout: 10_000 }),
      explained(
        akka.firefox,
        `photo "${photoAlt}" loaded`,
        akka.firefox.waitForFunction(photoLoaded, { polling: 50, timeout: 10_000 }, photoAlt),
      ),
    ]);

    // Amma likes it: the customer and the jeweller see it, both watched at once (a like shows for 6 s from
    // when each side has it: watched one after the other, the second side's could be gone already).
    await amma.page.getByRole('button', { name: `I like this one: ${shown!.name}` }).click();
    await Promise.all(
      [customer.page, seller.page].map((side) =>
        side.getByTestId('family-like').getByText(`Amma likes ${shown!.name}`).waitFor({ timeout: 10_000 }),
      ),
    );

    // Akka (Firefox) leaves: the others stay connected.
    await clickButton(akka.firefox, 'Leave');
    await waitForText(akka.firefox, 'You left the call.');
    await customer.page.locator(`[data-testid="family-tile"][data-party="${akkaParty}"]`).waitFor({
      state: 'detached',
      timeout: 10_000,
    });
    await Promise.all([
      expectTilesPlaying(customer.page, [ammaParty], 'the customer still sees Amma'),
      expectTilesPlaying(seller.page, [ammaParty], 'the jeweller still sees Amma'),
      expectTilesPlaying(amma.page, [customerParty, sellerParty], 'Amma still sees both'),
      remoteVideoPlays(customer.page),
      remoteVideoPlays(seller.page),
    ]);

    // The customer ends the call: Amma's part ends with a clear message.
    await customer.page.getByRole('button', { name: 'End call' }).click();
    await amma.page.getByText('The call has ended. Thank you for joining.').waitFor({ timeout: 10_000 });
  });
});

describe('family in the call in Tamil at 360×640', () => {
  it('the invite dialog, the join page, the wait and the guest’s call read Tamil, fit the phone and pass axe', async () => {
    const F = ta.family;
    // The customer, whom a guest sees by first name only.
    const { seller, customer } = await jewellerAndCustomer(phone, {
      first: 'Kavitha',
      store: STORE,
      shop: SHOP,
      locale: 'ta',
    });
    await customer.page.getByRole('button', { name: ta.calls.button.videoCall, exact: true }).click();
    await customer.page.locator('[data-call-id]').waitFor();
    const callId = Number(await customer.page.locator('[data-call-id]').getAttribute('data-call-id'));
    const ringing = seller.page.getByRole('alertdialog');
    await ringing.waitFor({ timeout: 20_000 });
    await ringing.getByRole('button', { name: 'Accept' }).click();
    await remoteVideoPlays(customer.page);

    // The customer's "Invite family" and its dialog.
    const inviteButton = customer.page.getByRole('button', { name: F.invite.button });
    await expectControlsUsable(inviteButton, '"Invite family" (Tamil)');
    await inviteButton.click();
    const dialog = customer.page.getByRole('dialog', { name: F.invite.title });
    const link = dialog.getByRole('textbox', { name: F.invite.linkLabel });
    await link.waitFor();
    const path = new URL(await link.inputValue()).pathname;
    await expectAccessible(customer.page, 'invite dialog (Tamil)');
    await expectNoSidewaysScroll(customer.page, 'invite dialog (Tamil)');
    await expectTamilNames(dialog, [], 'invite dialog');
    await expectControlsUsable(dialog, 'invite dialog (Tamil)');
    await dialog.getByRole('button', { name: ta.common.close }).click();
    await dialog.waitFor({ state: 'detached' });

    // The guest's join page.
    const amma = await phone('ta');
    await amma.page.goto(path);
    const form = amma.page.getByTestId('guest-join');
    await amma.page.getByRole('heading', { name: tr(F.join.title, { shop: SHOP }) }).waitFor();
    await expectAccessible(amma.page, 'join page (Tamil)');
    await expectNoSidewaysScroll(amma.page, 'join page (Tamil)');
    await expectTamilNames(amma.page.locator('body'), PAGE_NAMES, 'join page');
    await amma.page.getByRole('textbox', { name: F.join.name }).fill('அம்மா');
    await expectControlsUsable(form, 'join page (Tamil)');
    await amma.page.getByRole('button', { name: F.join.ask }).click();
    const waiting = amma.page.getByTestId('guest-waiting');
    await waiting.getByText(tr(F.join.waiting, { shop: SHOP })).waitFor();
    await expectAccessible(amma.page, 'waiting to be let in (Tamil)');
    await expectTamilNames(amma.page.locator('body'), PAGE_NAMES, 'waiting');
    await expectControlsUsable(waiting, 'waiting (Tamil)');

    // Admitted, with a piece shown: the guest's call.
    await seller.page.getByTestId('family-requests').getByRole('button', { name: 'Admit அம்மா' }).click();
    const shown = await seller.page.evaluate(async (id) => {
      const res = await fetch(`/_api/call/products?callId=${id}`);
      const body = (await res.json()) as { products: { id: number; name: string }[] };
      return body.products[0]!;
    }, callId);
    const share = await seller.context.request.post('/_api/call/share', {
      data: { callId, productIds: [shown.id] },
      headers: { Origin: baseUrl() },
    });
    expect(share.status()).toBe(201);
    const inCall = amma.page.getByTestId('guest-call');
    await inCall.getByTestId('guest-piece').getByText(shown.name).waitFor({ timeout: 10_000 });
    await inCall.getByRole('button', { name: tr(F.like.likePiece, { piece: shown.name }) }).click();
    await inCall.getByText(F.like.sent).waitFor();
    await inCall
      .getByTestId('guest-said')
      .getByText(tr(F.like.liked, { name: 'அம்மா', piece: shown.name }))
      .waitFor();
    const pieces = await inCall
      .getByTestId('guest-piece')
      .evaluateAll((items) =>
        items.map((i) => i.querySelector('[data-testid="guest-piece-name"]')?.textContent ?? ''),
      );
    await expectAccessible(amma.page, 'guest in the call (Tamil)');
    await expectNoSidewaysScroll(amma.page, 'guest in the call (Tamil)');
    // People and things keep their names: the customer, the shop (the jeweller's tile), the pieces.
    await expectTamilNames(inCall, ['Kavitha', SHOP, ...pieces], 'guest in the call');
    await expectControlsUsable(inCall, 'guest in the call (Tamil)');

    // The customer ends the call: the guest is told so, in Tamil.
    await customer.page.getByRole('button', { name: ta.calls.modal.endCall }).click();
    await amma.page.getByText(F.end.ended).waitFor({ timeout: 10_000 });
  });
});
