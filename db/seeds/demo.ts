import type { Knex } from 'knex';
import { hashPassword } from '../../api/src/features/accounts/password';

export const DEMO_PASSWORD = 'Nagai@2026';

/** The three demo accounts printed at start-up, with the login page each one uses. */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@nagai.test', displayName: 'Nagai Admin', loginPath: '/admin/login' },
  {
    role: 'seller',
    email: 'seller@nagai.test',
    displayName: 'Lakshmi Narayanan',
    loginPath: '/seller/login',
  },
  {
    role: 'customer',
    email: 'customer@nagai.test',
    displayName: 'Priya Raman',
    loginPath: '/customer/login',
  },
] as const;

/** True when no user exists yet: the first start of an embedded database. */
export async function isDatabaseEmpty(knex: Knex): Promise<boolean> {
  const row = (await knex('users').count<{ count: number | string }[]>('* as count'))[0];
  return Number(row?.count ?? 0) === 0;
}

/** Loads the demo data set: accounts, shops, products with drawn images. */
export async function seedDemoData(knex: Knex, opts: { log?: (m: string) => void } = {}): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await knex.transaction(async (trx) => {
    const ids: Record<string, number> = {};
    for (const a of DEMO_ACCOUNTS) {
      const [row] = (await trx('users')
        .insert({ email: a.email, password_hash: passwordHash, display_name: a.displayName, role: a.role })
        .returning('id')) as { id: number }[];
      ids[a.role] = row.id;
    }
    await trx('seller_profiles').insert({
      user_id: ids.seller,
      shop_name: 'Lakshmi Jewellers',
      description: 'Temple jewellery and bridal gold from a family of goldsmiths in Mylapore since 1978.',
      shop_address: '14 North Mada Street, Mylapore',
      city: 'Chennai',
      state: 'Tamil Nadu',
      pincode: '600004',
      phone: '9840012345',
      whatsapp_number: '9840012345',
      gst_number: '33AABCL1234M1Z5',
      certifications: JSON.stringify(['BIS Hallmark', 'IGI Certified Diamonds']),
      video_call_enabled: true,
      url_slug: 'lakshmi-jewellers',
      established_date: '1978-04-14',
      is_approved: true,
    });
  });
  opts.log?.('demo data loaded');
}
