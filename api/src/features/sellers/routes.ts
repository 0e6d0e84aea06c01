import type { Feature } from '../../app';
import {
  SELLER_MESSAGES,
  SellerProfileUpdateSchema,
  SellerRegistrationSchema,
  type SellerProfileCreatedResponse,
  type SellerProfileResponse,
} from '../../../contract/sellers';
import { currentUser, requireAuth, requireRole } from '../../http/auth';
import type { AppContext } from '../../http/context';
import { parseBody } from '../../http/validate';
import { presentSellerProfile } from './presenter';
import { productsRoutes } from './products';
import { createProfile, getProfileByUser, updateProfile } from './service';

async function createOwnProfile(ctx: AppContext, status: number): Promise<void> {
  const input = parseBody(ctx, SellerRegistrationSchema);
  const { db, clock } = ctx.deps;
  const row = await createProfile(db, currentUser(ctx).id, input, clock.now());
  ctx.status = status;
  ctx.body = { success: true, profile: presentSellerProfile(row) } satisfies SellerProfileCreatedResponse;
}

/** Routes of the sellers area: shop setup, admin registration, the shop profile, product mutations. */
export const sellersFeature: Feature = (router, opts) => {
  // A new seller creates the shop right after signing up; it waits for an admin's approval.
  router.post('/_api/seller/profile/setup', requireAuth('seller'), (ctx) => createOwnProfile(ctx, 201));

  // The spec's registration form is an admin tool: it registers a shop for the admin's own account.
  router.post(
    '/_api/seller/register',
    requireRole(['admin'], () => SELLER_MESSAGES.registrationAdminOnly),
    (ctx) => createOwnProfile(ctx, 201),
  );

  router.get('/_api/seller/profile', requireAuth('seller', 'admin'), async (ctx) => {
    const row = await getProfileByUser(ctx.deps.db, currentUser(ctx).id);
    ctx.body = { profile: presentSellerProfile(row) } satisfies SellerProfileResponse;
  });

  router.post('/_api/seller/profile/update', requireAuth('seller', 'admin'), async (ctx) => {
    const input = parseBody(ctx, SellerProfileUpdateSchema);
    const { db, clock } = ctx.deps;
    const row = await updateProfile(db, currentUser(ctx).id, input, clock.now());
    ctx.body = { profile: presentSellerProfile(row) } satisfies SellerProfileResponse;
  });

  productsRoutes(router, opts);
};
