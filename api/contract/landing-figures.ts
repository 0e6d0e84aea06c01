import type { CatalogStats } from './catalog';

/**
 * The landing page's figures (docs/product-rules.md §20.4). A figure is shown only when it is large enough to
 * say something: "1 Happy Customer" or "1 buyer in the last 30 days" reads as a joke, so below its threshold a
 * figure is left out (its label with it). The hero's promise of pieces is the real count, rounded down.
 */
export const LANDING_FIGURE_MIN: Readonly<Record<keyof CatalogStats, number>> = {
  happyCustomers: 100,
  verifiedJewelers: 10,
  jewelryPieces: 100,
  monthlyBuyers: 25,
};

/** Whether a landing figure is shown: known, and at least its threshold. */
export const showsFigure = (key: keyof CatalogStats, value: number | undefined): value is number =>
  value !== undefined && value >= LANDING_FIGURE_MIN[key];

/** From this many pieces the hero may say "thousands of pieces". */
export const THOUSANDS_FROM = 2000;

/**
 * What the hero may claim of the catalogue's size: "thousands" from THOUSANDS_FROM pieces; from
 * LANDING_FIGURE_MIN.jewelryPieces, the count rounded down to a round figure ("over 250" for 251: to 50 below a
 * thousand, to 500 below THOUSANDS_FROM), `exact` when nothing was rounded off; below it, no number at all.
 */
export type PiecesClaim =
  { kind: 'thousands' } | { kind: 'count'; count: number; exact: boolean } | { kind: 'none' };

export function piecesClaim(pieces: number | undefined): PiecesClaim {
  if (pieces === undefined || pieces < LANDING_FIGURE_MIN.jewelryPieces) return { kind: 'none' };
  if (pieces >= THOUSANDS_FROM) return { kind: 'thousands' };
  const step = pieces < 1000 ? 50 : 500;
  const count = Math.floor(pieces / step) * step;
  return { kind: 'count', count, exact: count === pieces };
}
