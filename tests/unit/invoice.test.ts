import { describe, expect, it } from 'vitest';
import { invoiceTotals, pageItems, statusBadgeVariant } from '../../pwa/src/features/orders/invoice';
import { stockNoteKey } from '../../pwa/src/features/cart/stock-note';

const item = (price: string, gstAmount: string, quantity: number) => ({
  id: 1,
  quantity,
  price,
  gstAmount,
  lineTotal: '0',
  product: { id: 1, name: 'Ring', images: [], gstAmount },
  rating: null,
  canRate: false,
});

describe('invoice totals (docs/product-rules.md §9, §10)', () => {
  it('sums price × quantity in paise and takes GST as the tax invoice does, not from the stored figures', () => {
    // The GST inside a unit price is price − round(price × 100 / 103): 0.10 → 0.00, 1999.99 → 58.25,
    // 0.20 → 0.01. The lines' stored figures (3 % of the inclusive price, or nonsense) are not read.
    const totals = invoiceTotals({
      items: [item('0.10', '0.01', 3), item('1999.99', '60.00', 2), item('0.20', '9.99', 7)],
      shippingCharges: '0.00',
      totalAmount: '4001.68',
    });
    expect(totals).toEqual({ subtotal: '4001.68', gst: '116.57', shipping: '0.00', total: '4001.68' });
  });
  it('takes the total as the server recorded it, not as subtotal + shipping', () => {
    const totals = invoiceTotals({
      items: [item('100.00', '3.00', 1)],
      shippingCharges: '50',
      totalAmount: '120.00',
    });
    expect(totals).toEqual({ subtotal: '100.00', gst: '2.91', shipping: '50.00', total: '120.00' });
  });
});

describe('status badges (docs/product-rules.md §4)', () => {
  it('maps each status to its style', () => {
    expect(statusBadgeVariant('delivered')).toBe('success');
    expect(statusBadgeVariant('completed')).toBe('success');
    expect(statusBadgeVariant('cancelled')).toBe('destructive');
    expect(statusBadgeVariant('pending')).toBe('warning');
    expect(statusBadgeVariant('shipped')).toBe('default');
    expect(statusBadgeVariant('in-progress')).toBe('default');
    expect(statusBadgeVariant('confirmed')).toBe('secondary');
    expect(statusBadgeVariant('anything')).toBe('outline');
  });
});

describe('pagination with one sibling (docs/product-rules.md §9)', () => {
  it('shows first, last, the current page and one each side', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageItems(3, 10)).toEqual([1, 2, 3, 4, null, 10]);
    expect(pageItems(10, 10)).toEqual([1, null, 9, 10]);
  });
});

describe('cart stock note (docs/product-rules.md §9)', () => {
  it("says 'Only N in stock' at 5 or fewer, else 'N available', nothing when unlimited", () => {
    expect(stockNoteKey(5)).toEqual({ key: 'cart.onlyInStock', n: 5 });
    expect(stockNoteKey(1)).toEqual({ key: 'cart.onlyInStock', n: 1 });
    expect(stockNoteKey(6)).toEqual({ key: 'cart.available', n: 6 });
    expect(stockNoteKey(null)).toBeNull();
  });
});
