import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../api/contract/checkout';
import { pinCodeInState, SHIPPING_STATE_CODES } from '../../api/contract/india-states';
import type { TaxInvoice } from '../../api/contract/invoices';
import { GST_STATES } from '../../api/contract/pricing';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { checkoutBody, checkoutPaid, newCustomer } from './checkout-support';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';

/**
 * The shipping state is one of India's states and union territories by its GST state code, checked against the
 * PIN code; place of supply and CGST + SGST or IGST follow from the codes (issue #40 item 5).
 */
let api: TestApi;
let productId: number;
beforeAll(async () => {
  api = await startTestApi({ env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' } });
  const seller = await buildSeller(api.db.knex);
  await api.db.knex('seller_profiles').where({ user_id: seller.id }).update({
    gst_number: '33ABCDE1234F1Z5',
    gst_state_code: '33',
  });
  productId = (await buildProduct(api.db.knex, seller.id, { price: '10300.00', stockQuantity: null })).id;
});
afterAll(async () => api?.close());

async function checkout(overrides: Record<string, unknown>) {
  const { client } = await newCustomer(api);
  await client.post('/_api/cart/add', { productId, quantity: 1 });
  const res = await checkoutPaid(api, client, checkoutBody(overrides));
  if (res.status !== 201) return { res, invoice: null };
  const inv = await client.get<{ invoice: TaxInvoice }>(
    `/_api/order/invoice?orderId=${res.body.orders[0].id}`,
  );
  return { res, invoice: inv.body.invoice };
}

describe('the shipping state', () => {
  it('names every state and union territory offered in English and in Tamil', () => {
    expect(SHIPPING_STATE_CODES).toHaveLength(36);
    const enStates = en.checkout.states as Record<string, string>;
    const taStates = ta.checkout.states as Record<string, string>;
    for (const code of SHIPPING_STATE_CODES) {
      expect(enStates[code]).toBe(GST_STATES[code]);
      expect(taStates[code]).toMatch(/[\u0B80-\u0BFF]/);
    }
    expect(taStates['33']).toBe('தமிழ்நாடு');
  });

  it('a sale shipped within the shop’s state is CGST + SGST with its place of supply', async () => {
    const { res, invoice } = await checkout({ state: '33', city: 'Chennai', pinCode: '600004' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.orders[0].state).toBe('Tamil Nadu');
    expect(invoice!.supply).toBe('intra');
    expect(invoice!.placeOfSupply).toBe('Tamil Nadu (33)');
    expect(invoice!.buyer.stateCode).toBe('33');
    expect([invoice!.cgst, invoice!.sgst, invoice!.igst]).toEqual(['150.00', '150.00', '0.00']);
  });

  it('a sale shipped to another state is IGST', async () => {
    const { res, invoice } = await checkout({ state: '29', city: 'Bengaluru', pinCode: '560011' });
    expect(res.status).toBe(201);
    expect(invoice!.supply).toBe('inter');
    expect(invoice!.placeOfSupply).toBe('Karnataka (29)');
    expect([invoice!.cgst, invoice!.sgst, invoice!.igst]).toEqual(['0.00', '0.00', '300.00']);
  });

  it('refuses a state that is not on the list (typed in Tamil, misspelt) and a PIN code of another state', async () => {
    for (const state of ['தமிழ்நாடு', 'Tamilnadu', '25', '97']) {
      const { res } = await checkout({ state, pinCode: '600004' });
      expect(res.status, state).toBe(400);
      expect(res.body.error).toBe(CHECKOUT_MESSAGES.stateInvalid);
    }
    const { res } = await checkout({ state: '33', city: 'Bengaluru', pinCode: '560011' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('This PIN code is not in Tamil Nadu. Check the PIN code or the state.');
    expect((res.body as { issues?: unknown }).issues).toEqual([{ path: 'pinCode', message: res.body.error }]);
    expect(pinCodeInState('605001', '34')).toBe(true);
    expect(pinCodeInState('605001', '33')).toBe(true);
    expect(pinCodeInState('110001', '33')).toBe(false);
  });
});
