/**
 * How a piece looks when it is drawn rather than photographed (issue #51 item 4): the colour of its metal and
 * the real size of its kind. Shared by the demo's seeds (product sizes and try-on pictures) and the try-on's
 * drawn pieces (pwa/src/features/tryon/pieces.ts), so both agree. Rules: docs/product-rules.md §16.
 */

/** The colour family a piece's metal is drawn in. */
export type MetalTone = 'gold' | 'silver' | 'platinum' | 'copper' | 'brass';

/** Light, middle and dark shade of each metal (highlight, body, outline). */
export const METAL_SHADES: Record<MetalTone, readonly [hi: string, mid: string, lo: string]> = {
  gold: ['#fff3b0', '#e2b843', '#9c6d15'],
  silver: ['#ffffff', '#c9ced5', '#747b86'],
  platinum: ['#f4f5f7', '#d9dde3', '#858c96'],
  copper: ['#ffd1b0', '#c8773f', '#6f3410'],
  brass: ['#fbf0a0', '#c5a935', '#76631a'],
};

/**
 * The metal a piece is drawn in, from its material and purity: a silver, platinum, copper or brass piece in its
 * own metal; otherwise the purity decides (a karat, "22K" or "18K", is gold whatever the stone set in it;
 * "PT950" platinum; "925" or "999" silver); a gem or costume piece with no telling purity is drawn gold.
 */
export function metalTone(material: string, purity: string | null | undefined): MetalTone {
  if (material === 'silver' || material === 'platinum' || material === 'copper' || material === 'brass')
    return material;
  const p = (purity ?? '').trim().toLowerCase();
  if (/\b\d{1,2}\s*(k|kt|karat|carat)\b/.test(p) || p.includes('gold')) return 'gold';
  if (/^pt\s*\d{3}$/.test(p) || p.includes('platinum')) return 'platinum';
  if (/^(925|999|958)$/.test(p) || p.includes('silver')) return 'silver';
  if (p.includes('copper')) return 'copper';
  if (p.includes('brass')) return 'brass';
  return 'gold';
}

/**
 * Real sizes (millimetres, width and height as worn, seen from the front) of the pieces of each kind the demo
 * gives a size to: what a jeweller's pieces of the kind measure, smallest to largest. A demo product's width
 * and height are drawn from its kind's range (api/src/seeds/catalogue.ts), never from one range for all.
 */
export const KIND_SIZE_RANGE_MM = {
  earrings: { width: [10, 24], height: [18, 60] },
  nose_pins: { width: [3, 8], height: [3, 8] },
  pendants: { width: [12, 30], height: [18, 45] },
  necklaces: { width: [110, 160], height: [90, 150] },
  rings: { width: [17, 24], height: [6, 18] },
  toe_rings: { width: [14, 19], height: [4, 10] },
  hair_accessories: { width: [30, 90], height: [40, 260] },
} as const satisfies Record<string, { width: readonly [number, number]; height: readonly [number, number] }>;

export type SizedCategory = keyof typeof KIND_SIZE_RANGE_MM;

/**
 * A size in a kind's range, from two fractions 0..1 (the seeds' random draws): one decimal millimetre, and a
 * nose pin round (its height is its width).
 */
export function kindSizeMm(
  category: SizedCategory,
  fw: number,
  fh: number,
): { width: number; height: number } {
  const r = KIND_SIZE_RANGE_MM[category];
  const at = (range: readonly [number, number], f: number) =>
    Math.round((range[0] + Math.min(1, Math.max(0, f)) * (range[1] - range[0])) * 10) / 10;
  const width = at(r.width, fw);
  return { width, height: category === 'nose_pins' ? width : at(r.height, fh) };
}
