import { describe, expect, it } from 'vitest';
import { nextScrollLeft } from '../../pwa/src/features/home/components/category-carousel';
import { resolveHomeTab, visibleTabs } from '../../pwa/src/features/home/utils/home-tabs';
import {
  parseMarketplaceParams,
  resultRange,
  toListRequest,
  toMarketplaceParams,
  withFilters,
} from '../../pwa/src/features/catalog/utils/marketplace-params';
import { paginationItems } from '../../pwa/src/lib/pagination';

const parse = (qs: string) => parseMarketplaceParams(new URLSearchParams(qs));
const pages = (cur: number, total: number) =>
  paginationItems(cur, total).map((i) => (i.type === 'page' ? i.page : '…'));

describe('marketplace URL filters', () => {
  it('reads defaults and ignores unknown category, material and sort values', () => {
    expect(parse('')).toEqual({ page: 1, query: '', sortBy: 'newest' });
    expect(parse('category=spaceships&material=unobtainium&sortBy=cheapest&page=-3')).toEqual({
      page: 1,
      query: '',
      sortBy: 'newest',
    });
    expect(
      parse('category=Bridal_Sets&material=gold&sortBy=price-asc&page=4&query=%20jhumka%20'),
    ).toMatchObject({
      category: 'bridal_sets',
      material: 'gold',
      sortBy: 'price-asc',
      page: 4,
      query: 'jhumka',
    });
  });

  it('drops price bounds on or beyond the slider ends and swaps a reversed range', () => {
    expect(parse('minPrice=0&maxPrice=500000')).toMatchObject({ minPrice: undefined, maxPrice: undefined });
    expect(parse('minPrice=-5&maxPrice=900000')).toMatchObject({ minPrice: undefined, maxPrice: undefined });
    expect(parse('minPrice=abc')).toMatchObject({ minPrice: undefined });
    expect(parse('minPrice=20000&maxPrice=10000')).toMatchObject({ minPrice: 10000, maxPrice: 20000 });
  });

  it('writes only non-default values, round-trips, and sends prices only off the bounds', () => {
    const f = parse('query=ring&material=silver&minPrice=1000&maxPrice=500000&sortBy=newest&page=2');
    // A search asked to be newest first says so; in best-match order (its default) it need not.
    expect(toMarketplaceParams(f).toString()).toBe(
      'query=ring&material=silver&minPrice=1000&sortBy=newest&page=2',
    );
    expect(parse(toMarketplaceParams(f).toString())).toEqual(f);
    expect(toListRequest({ ...f, minPrice: 0, maxPrice: 500000 })).toEqual({
      page: 2,
      limit: 20,
      query: 'ring',
      material: 'silver',
      sortBy: 'newest',
    });
    const best = parse('query=ring&page=2');
    expect(best.sortBy).toBe('relevance');
    expect(toMarketplaceParams(best).toString()).toBe('query=ring&page=2');
    // Best match goes to the API as no sort at all: the API ranks a search by relevance.
    expect(toListRequest(best)).toEqual({ page: 2, limit: 20, query: 'ring' });
    // Best match without a search is the browsing default.
    expect(parse('sortBy=relevance').sortBy).toBe('newest');
    expect(toMarketplaceParams({ ...best, query: '' }).toString()).toBe('page=2');
  });

  it('goes back to page 1 when a filter changes', () => {
    expect(withFilters(parse('page=5'), { material: 'gold' })).toMatchObject({ page: 1, material: 'gold' });
  });

  it("computes 'Showing X-Y of N results'", () => {
    expect(resultRange(1, 20, 256)).toEqual({ from: 1, to: 20 });
    expect(resultRange(13, 20, 256)).toEqual({ from: 241, to: 256 });
    expect(resultRange(1, 20, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('pagination with one sibling', () => {
  it('shows every page when few, else first, last, current ±1 and gaps', () => {
    expect(pages(1, 1)).toEqual([1]);
    expect(pages(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages(1, 20)).toEqual([1, 2, 3, 4, 5, '…', 20]);
    expect(pages(4, 20)).toEqual([1, 2, 3, 4, 5, '…', 20]);
    expect(pages(10, 20)).toEqual([1, '…', 9, 10, 11, '…', 20]);
    expect(pages(19, 20)).toEqual([1, '…', 16, 17, 18, 19, 20]);
    expect(pages(99, 20)).toEqual([1, '…', 16, 17, 18, 19, 20]);
  });
});

describe('home tabs', () => {
  it('shows Become a Seller to admins without a shop only', () => {
    expect(visibleTabs('customer', false)).toEqual(['browse']);
    expect(visibleTabs('seller', true)).toEqual(['browse', 'sell']);
    expect(visibleTabs('admin', false)).toEqual(['browse', 'sell', 'register-seller']);
    expect(visibleTabs('admin', true)).toEqual(['browse', 'sell']);
  });

  it('makes the product rules moves', () => {
    const r = (role: 'customer' | 'seller' | 'admin', requested: string | null, hasProfile = false) =>
      resolveHomeTab({ role, requested, hasProfile, profileKnown: true });
    expect(r('seller', null, true)).toEqual({ tab: 'sell', redirect: 'sell', restricted: false });
    expect(r('seller', 'browse', true)).toEqual({ tab: 'browse', redirect: null, restricted: false });
    expect(r('customer', 'sell')).toEqual({ tab: 'browse', redirect: 'browse', restricted: true });
    expect(r('customer', 'register-seller')).toEqual({ tab: 'browse', redirect: 'browse', restricted: true });
    expect(r('seller', 'register-seller', true)).toEqual({
      tab: 'sell',
      redirect: 'sell',
      restricted: false,
    });
    expect(r('admin', 'register-seller', true).tab).toBe('register-seller');
    expect(r('customer', 'nonsense')).toEqual({ tab: 'browse', redirect: null, restricted: false });
    expect(
      resolveHomeTab({ role: 'seller', requested: null, hasProfile: false, profileKnown: false }).tab,
    ).toBe('browse');
  });
});

describe('category carousel', () => {
  it('steps 80% of the width and wraps at both ends', () => {
    expect(nextScrollLeft(0, 1000, 3000, 1)).toBe(800);
    expect(nextScrollLeft(1800, 1000, 3000, 1)).toBe(2000);
    expect(nextScrollLeft(2000, 1000, 3000, 1)).toBe(0);
    expect(nextScrollLeft(0, 1000, 3000, -1)).toBe(2000);
    expect(nextScrollLeft(500, 1000, 3000, -1)).toBe(0);
  });
});
