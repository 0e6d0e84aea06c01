import { ADMIN_MESSAGES, SellerApprovalSchema } from '../../../contract/admin';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { presentSellerProfile } from '../sellers/presenter';
import { presentAdminCustomer, presentAdminSeller } from './presenter';
import { listCustomers, listSellers, setApproval } from './service';

/** Routes of the admin area: seller and customer lists, seller approval. */
export const adminFeature: Feature = (router) => {
  endpoint(router, R.adminSellers, {
    handle: async (deps) => {
      const rows = await listSellers(deps.db);
      return { sellers: rows.map((r) => presentAdminSeller(r.user, r.profile)) };
    },
  });

  endpoint(router, R.adminCustomers, {
    handle: async (deps) => ({ customers: (await listCustomers(deps.db)).map(presentAdminCustomer) }),
  });

  endpoint(router, R.sellerApprove, {
    input: SellerApprovalSchema,
    handle: async (deps, _user, { sellerUserId, isApproved }) => {
      const row = await setApproval(deps.db, sellerUserId, isApproved, deps.clock.now());
      return {
        message: isApproved ? ADMIN_MESSAGES.approved : ADMIN_MESSAGES.disapproved,
        profile: presentSellerProfile(row),
      };
    },
  });
};
