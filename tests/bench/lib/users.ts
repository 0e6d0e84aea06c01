import type { Knex } from 'knex';
import { hashPassword } from '../../../api/src/features/accounts/password';

/** Makes sure `count` bench customers exist and returns their ids. */
export async function ensureCustomers(knex: Knex, count: number): Promise<number[]> {
  const hash = await hashPassword('Bench@2026');
  await knex.raw(
    `insert into users (email, password_hash, display_name, role)
     select 'bench-customer-' || g || '@nagai.test', ?, 'Bench Customer ' || g, 'customer'
     from generate_series(1, ?) g
     on conflict do nothing`,
    [hash, count],
  );
  return (await knex('users')
    .where('email', 'like', 'bench-customer-%@nagai.test')
    .orderBy('id')
    .limit(count)
    .pluck('id')) as number[];
}

/** Makes sure at least `count` approved sellers with video calls on exist and returns their ids. */
export async function ensureVideoSellers(knex: Knex, count: number): Promise<number[]> {
  const have = Number(
    (
      await knex.raw(
        `select count(*)::int as n from seller_profiles where is_approved = true and video_call_enabled = true`,
      )
    ).rows[0].n,
  );
  if (have < count) {
    const hash = await hashPassword('Bench@2026');
    const missing = count - have;
    await knex.raw(
      `with u as (
         insert into users (email, password_hash, display_name, role)
         select 'bench-seller-' || g || '-' || extract(epoch from now())::bigint || '@nagai.test', ?, 'Bench Jeweller ' || g, 'seller'
         from generate_series(1, ?) g
         returning id
       )
       insert into seller_profiles (user_id, shop_name, shop_address, city, state, pincode, phone, video_call_enabled, is_approved)
       select id, 'Bench Jewellers ' || id, '1 Bench Street, Test Nagar', 'Chennai', 'Tamil Nadu', '600001', '9000000000', true, true
       from u`,
      [hash, missing],
    );
    // Fresh statistics and flushed GIN pending lists, or searches over shops plan against the old table.
    await knex.raw('vacuum analyze users');
    await knex.raw('vacuum analyze seller_profiles');
  }
  return (await knex('seller_profiles')
    .where({ is_approved: true, video_call_enabled: true })
    .orderBy('user_id')
    .limit(count)
    .pluck('user_id')) as number[];
}
