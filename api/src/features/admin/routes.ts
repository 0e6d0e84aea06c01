import type { Feature } from '../../app';
import {
  ADMIN_MESSAGES,
  SellerApprovalSchema,
  type AdminCustomersResponse,
  type AdminSellersResponse,
  type SellerApprovalResponse,
} from '../../../contract/admin';
import { presentSellerProfile } from '../sellers/presenter';
import { requireAuth } from '../../http/auth';
import { parseBody } from '../../http/validate';
import { presentAdminCustomer, presentAdminSeller } from './presenter';
import { listCustomers, listSellers, setApproval } from './service';

/** Routes of the admin area: seller and customer lists, seller approval. */
export const adminFeature: Feature = (router) => {
  const adminOnly = requireAuth('admin');

  router.get('/_api/admin/sellers', adminOnly, async (ctx) => {
    const rows = await listSellers(ctx.deps.db);
    ctx.body = {
      sellers: rows.map((r) => presentAdminSeller(r.user, r.profile)),
    } satisfies AdminSellersResponse;
  });

  router.get('/_api/admin/customers', adminOnly, async (ctx) => {
    const rows = await listCustomers(ctx.deps.db);
    ctx.body = { customers: rows.map(presentAdminCustomer) } satisfies AdminCustomersResponse;
  });

  router.post('/_api/admin/seller/approve', adminOnly, async (ctx) => {
    const { sellerUserId, isApproved } = parseBody(ctx, SellerApprovalSchema);
    const row = await setApproval(ctx.deps.db, sellerUserId, isApproved, ctx.deps.clock.now());
    ctx.body = {
      message: isApproved ? ADMIN_MESSAGES.approved : ADMIN_MESSAGES.disapproved,
      profile: presentSellerProfile(row),
    } satisfies SellerApprovalResponse;
  });
};
