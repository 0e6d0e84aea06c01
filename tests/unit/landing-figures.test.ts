import { describe, expect, it } from 'vitest';
import { LANDING_FIGURE_MIN, piecesClaim, showsFigure } from '../../api/contract/landing-figures';

describe("the landing's figures (docs/product-rules.md §20.4)", () => {
  it('leaves out a figure too small to impress, and shows it from its threshold', () => {
    expect(showsFigure('happyCustomers', 1)).toBe(false);
    expect(showsFigure('monthlyBuyers', 1)).toBe(false);
    expect(showsFigure('happyCustomers', LANDING_FIGURE_MIN.happyCustomers - 1)).toBe(false);
    expect(showsFigure('happyCustomers', LANDING_FIGURE_MIN.happyCustomers)).toBe(true);
    expect(showsFigure('monthlyBuyers', LANDING_FIGURE_MIN.monthlyBuyers)).toBe(true);
    expect(showsFigure('verifiedJewelers', 14)).toBe(true);
    expect(showsFigure('verifiedJewelers', 3)).toBe(false);
    expect(showsFigure('jewelryPieces', undefined)).toBe(false);
  });

  it('claims only the pieces there are: "thousands" from 2,000, else the count rounded down', () => {
    expect(piecesClaim(251)).toEqual({ kind: 'count', count: 250, exact: false });
    expect(piecesClaim(250)).toEqual({ kind: 'count', count: 250, exact: true });
    expect(piecesClaim(1_234)).toEqual({ kind: 'count', count: 1_000, exact: false });
    expect(piecesClaim(1_999)).toEqual({ kind: 'count', count: 1_500, exact: false });
    expect(piecesClaim(2_000)).toEqual({ kind: 'thousands' });
    expect(piecesClaim(100_000)).toEqual({ kind: 'thousands' });
    expect(piecesClaim(99)).toEqual({ kind: 'none' });
    expect(piecesClaim(undefined)).toEqual({ kind: 'none' });
    for (let n = 100; n < 2_000; n += 7) {
      const c = piecesClaim(n);
      expect(c.kind === 'count' && c.count <= n && c.count > 0).toBe(true);
    }
  });
});
