import crypto from 'node:crypto';
import type { Order } from '../../api/contract/orders';
import type { CheckoutResponse } from '../../api/contract/checkout';
import type { PaymentResult, PaymentStart } from '../../api/contract/payments';
import type { CheckoutResult, PayOutcome, RazorpayDouble } from '../../api/src/doubles/razorpay-double';
import { buildUser, type BuiltUser } from '../factories';
import type { ApiClient, ApiResponse, TestApi } from '../support/api';

/**
 * A signed-in client for a user, with a session row made the way the server makes one (a hash of the
 * cookie's token): the buying tests need many users and must not depend on the login endpoint's limits.
 */
export async function signIn(api: TestApi, user: { id: number }): Promise<ApiClient> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  await api.db.knex('sessions').insert({
    id: crypto.createHash('sha256').update(token).digest('base64url'),
    user_id: user.id,
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(now.getTime() + 365 * 86_400_000),
  });
  const client = api.client();
  client.cookies.set('nagai_session', token);
  return client;
}

/** A new customer, signed in. */
export async function newCustomer(api: TestApi): Promise<{ user: BuiltUser; client: ApiClient }> {
  const user = await buildUser(api.db.knex, { role: 'customer' });
  return { user, client: await signIn(api, user) };
}

export const checkoutBody = (overrides: Record<string, unknown> = {}) => ({
  customerName: 'Meena Sundaram',
  customerPhone: '9876501234',
  shippingAddress: '4 Gandhi Road, R.S. Puram',
  city: 'Coimbatore',
  state: 'Tamil Nadu',
  pinCode: '641002',
  paymentMethod: 'cash_on_delivery',
  ...overrides,
});

/** POST /_api/checkout/create with an Idempotency-Key (a fresh one unless given). */
export function postCheckout(
  client: ApiClient,
  body: unknown = checkoutBody(),
  key: string | null = crypto.randomUUID(),
): Promise<ApiResponse<CheckoutResponse & { error?: string; code?: string }>> {
  return client.post('/_api/checkout/create', body, key === null ? {} : { 'Idempotency-Key': key });
}

/** Adds each product to the client's cart, then checks out; throws unless both succeed. */
export async function buy(
  client: ApiClient,
  lines: { productId: number; quantity: number }[],
): Promise<Order[]> {
  for (const line of lines) {
    const res = await client.post('/_api/cart/add', line);
    if (res.status !== 200) throw new Error(`add failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const res = await postCheckout(client);
  if (res.status !== 201) throw new Error(`checkout failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orders;
}

/** A product's stock and units sold, straight from the database. */
/**
 * A product's stock and units sold, once the queued sales are added in (the server's 'orders:units-sold'
 * background task, which runs every few seconds).
 */
export async function productState(api: TestApi, productId: number) {
  await api.handle.background.runNow('orders:units-sold');
  return (await api.db.knex('products').where({ id: productId }).first('stock_quantity', 'units_sold')) as {
    stock_quantity: number | null;
    units_sold: number;
  };
}

/** The Razorpay test double the app under test started (no keys in tests). */
export async function razorpayDouble(api: TestApi): Promise<RazorpayDouble> {
  const double = await api.handle.deps.payments?.double();
  if (!double) throw new Error('the test app has no Razorpay test double');
  return double;
}

/**
 * Pays a gateway order through the double as Razorpay Checkout would, then hands the result to the server as
 * the page does (POST /_api/payments/verify). A failed payment is only reported by the double's webhook.
 */
export async function payOnline(
  api: TestApi,
  client: ApiClient,
  payment: PaymentStart,
  outcome: PayOutcome = 'success',
): Promise<{
  checkout: CheckoutResult;
  verify?: ApiResponse<PaymentResult & { error?: string; code?: string }>;
}> {
  const checkout = await (await razorpayDouble(api)).pay(payment.gatewayOrderId, outcome);
  if ('error' in checkout) return { checkout };
  return { checkout, verify: await client.post('/_api/payments/verify', checkout) };
}

/**
 * Checks out paying online (UPI unless the body names a method) and pays through the double: the order's tax
 * invoice is issued once it is paid (docs/product-rules.md §10). Returns the checkout's answer.
 */
export async function checkoutPaid(
  api: TestApi,
  client: ApiClient,
  body: Record<string, unknown> = checkoutBody(),
): Promise<ApiResponse<CheckoutResponse & { error?: string; code?: string }>> {
  const method = body.paymentMethod === 'cash_on_delivery' ? 'upi' : (body.paymentMethod ?? 'upi');
  const res = await postCheckout(client, { ...body, paymentMethod: method });
  if (res.status !== 201 || !res.body.payment) return res;
  const { verify } = await payOnline(api, client, res.body.payment);
  if (verify?.status !== 200) throw new Error(`payment failed: ${JSON.stringify(verify?.body)}`);
  return res;
}
