import crypto from 'node:crypto';
import { buildSeller, buildUser, markSellerAppOpen, type BuiltSeller, type BuiltUser } from '../factories';
import type { ApiClient, TestApi } from '../support/api';

/**
 * A signed-in client for a user, with a session row made the way the server makes one (a hash of the
 * cookie's token). The calls tests need many users; this avoids depending on the login endpoint's limits.
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

export interface CallParties {
  customer: BuiltUser;
  seller: BuiltSeller;
  asCustomer: ApiClient;
  asSeller: ApiClient;
}

/**
 * Records that the seller's app is open now, as the presence batch of its poll would (seller_presence): a shop
 * nobody's app has open and whose seller takes no push is unreachable, and the server refuses to ring it
 * (issue #40). A test that moves the clock past the online window marks the app open again before a new call.
 */
export async function markAppOpen(api: TestApi, sellerId: number): Promise<void> {
  await markSellerAppOpen(api.db.knex, sellerId, api.clock.now());
}

/**
 * A fresh customer and an approved seller with video calls on, both signed in; the seller's app is open
 * (markAppOpen) unless `appOpen: false`.
 */
export async function callParties(
  api: TestApi,
  sellerOverrides: Parameters<typeof buildSeller>[1] = {},
  opts: { appOpen?: boolean } = {},
): Promise<CallParties> {
  const customer = await buildUser(api.db.knex, { role: 'customer' });
  const seller = await buildSeller(api.db.knex, sellerOverrides);
  if (opts.appOpen !== false) await markAppOpen(api, seller.id);
  return { customer, seller, asCustomer: await signIn(api, customer), asSeller: await signIn(api, seller) };
}

/** Places a call and returns its id; throws unless the server answered 201. */
export async function placeCall(p: Pick<CallParties, 'asCustomer' | 'seller'>): Promise<number> {
  const res = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', { sellerId: p.seller.id });
  if (res.status !== 201) throw new Error(`initiate failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.callId;
}

/** Places a call and has the seller accept it. */
export async function activeCall(p: CallParties): Promise<number> {
  const callId = await placeCall(p);
  const res = await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${JSON.stringify(res.body)}`);
  return callId;
}
