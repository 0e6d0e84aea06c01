/**
 * The demo data's published password and its three named accounts, apart from the demo data itself (which draws
 * images) so that the configuration can refuse the password in production without loading the seed.
 */

/** Published in the README: every demo account has it in development, none has it in production. */
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
