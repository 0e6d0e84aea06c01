import { fromPaise, toPaise } from '../../../../api/contract/money';
import type { Order } from '../../../../api/contract/orders';
import { invoiceMoney } from '../../../../api/contract/pricing';

/** The invoice figures of docs/product-rules.md §9, as decimal strings, computed in integer paise (never with floats). */
export interface InvoiceTotals {
  /** Σ price × quantity. */
  subtotal: string;
  /** shippingCharges. */
  shipping: string;
  /** GST included in the prices, as the tax invoice computes it (pricing.ts invoiceMoney). */
  gst: string;
  /** totalAmount as the server recorded it. */
  total: string;
}

export function invoiceTotals(
  order: Pick<Order, 'items' | 'shippingCharges' | 'totalAmount'>,
): InvoiceTotals {
  // The same arithmetic as the tax invoice (the GST inside each unit price × quantity), so the summary and the
  // invoice on the same page agree to the paisa.
  const money = invoiceMoney(
    order.items.map((item) => ({ unitPrice: toPaise(item.price), quantity: item.quantity })),
    true,
  );
  const gst = money.gst;
  return {
    subtotal: fromPaise(money.total),
    shipping: fromPaise(toPaise(order.shippingCharges ?? '0')),
    gst: fromPaise(gst),
    total: fromPaise(toPaise(order.totalAmount)),
  };
}

/** Order status badge styles of docs/product-rules.md §4. */
export const STATUS_BADGE = {
  delivered: 'success',
  completed: 'success',
  cancelled: 'destructive',
  failed: 'destructive',
  pending: 'warning',
  processing: 'warning',
  shipped: 'default',
  'in-progress': 'default',
  confirmed: 'secondary',
} as const;

export type StatusBadgeVariant = (typeof STATUS_BADGE)[keyof typeof STATUS_BADGE] | 'outline';

export function statusBadgeVariant(status: string): StatusBadgeVariant {
  return (STATUS_BADGE as Record<string, StatusBadgeVariant>)[status] ?? 'outline';
}

/** Pages to show with one sibling around the current one (docs/product-rules.md §9), gaps as null: 1 … 4 5 6 … 10. */
export function pageItems(current: number, total: number): (number | null)[] {
  if (total <= 1) return [1];
  const pages = new Set([1, total, current - 1, current, current + 1]);
  const sorted = [...pages].filter((p) => p >= 1 && p <= total).sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of sorted) {
    const prev = out[out.length - 1];
    if (typeof prev === 'number' && p - prev === 2) out.push(prev + 1);
    else if (typeof prev === 'number' && p - prev > 2) out.push(null);
    out.push(p);
  }
  return out;
}
