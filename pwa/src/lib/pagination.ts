/** One entry of a pagination bar: a page number or a gap. */
export type PageItem = { type: 'page'; page: number } | { type: 'gap'; key: string };

/**
 * Pages to show: first, last, the current page with `siblings` on each side, and gaps between. A gap that
 * would hide a single page shows that page instead (1 2 3 4 5 … 20 rather than 1 … 3 4 5 … 20 for page 4).
 */
export function paginationItems(current: number, total: number, siblings = 1): PageItem[] {
  if (total <= 0) return [];
  const page = Math.min(Math.max(1, current), total);
  // first + last + current + siblings + two gaps
  const slots = siblings * 2 + 5;
  if (total <= slots) return range(1, total).map((p) => ({ type: 'page', page: p }));
  const left = Math.max(page - siblings, 1);
  const right = Math.min(page + siblings, total);
  const showLeftGap = left > 3;
  const showRightGap = right < total - 2;
  const items: PageItem[] = [];
  if (!showLeftGap && showRightGap) {
    const count = 3 + 2 * siblings;
    for (const p of range(1, count)) items.push({ type: 'page', page: p });
    items.push({ type: 'gap', key: 'end' }, { type: 'page', page: total });
  } else if (showLeftGap && !showRightGap) {
    const count = 3 + 2 * siblings;
    items.push({ type: 'page', page: 1 }, { type: 'gap', key: 'start' });
    for (const p of range(total - count + 1, total)) items.push({ type: 'page', page: p });
  } else {
    items.push({ type: 'page', page: 1 }, { type: 'gap', key: 'start' });
    for (const p of range(left, right)) items.push({ type: 'page', page: p });
    items.push({ type: 'gap', key: 'end' }, { type: 'page', page: total });
  }
  return items;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
