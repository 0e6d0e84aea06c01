import { LIMITS } from '../../../../api/contract/constants';

/** The stock note of docs/product-rules.md §9: 'Only N in stock' at 5 or fewer, else 'N available'; nothing when unlimited. */
export function stockNoteKey(stock: number | null): { key: string; n: number } | null {
  if (stock === null) return null;
  return stock <= LIMITS.lowStockThreshold
    ? { key: 'cart.onlyInStock', n: stock }
    : { key: 'cart.available', n: stock };
}
