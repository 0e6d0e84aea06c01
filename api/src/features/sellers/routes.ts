import { API_ROUTES as R } from '../../../contract/routes';
import {
  SELLER_MESSAGES,
  SellerProfileUpdateSchema,
  SellerRegistrationSchema,
  type SellerRegistrationInput,
} from '../../../contract/sellers';
import type { AppDeps, Feature, SessionUser } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { presentSellerProfile } from './presenter';
import { productsRoutes } from './product-routes';
import { createProfile, getProfileByUser, updateProfile } from './service';

/** Creates the signed-in user's own shop profile. */
async function createOwnProfile(deps: AppDeps, user: SessionUser, input: SellerRegistrationInput) {
  const row = await createProfile(deps.db, user.id, input, deps.clock.now());
  return { success: true as const, profile: presentSellerProfile(row) };
}

/** Routes of the sellers area: shop setup, admin registration, the shop profile, product mutations. */
export const sellersFeature: Feature = (router, opts) => {
  // A new seller creates the shop right after signing up; it waits for an admin's approval.
  endpoint(router, R.sellerProfileSetup, { input: SellerRegistrationSchema, handle: createOwnProfile });

  // The registration form is an admin tool: it registers a shop for the admin's own account.
  endpoint(router, R.sellerRegister, {
    roleMessage: () => SELLER_MESSAGES.registrationAdminOnly,
    input: SellerRegistrationSchema,
    handle: createOwnProfile,
  });

  endpoint(router, R.sellerProfile, {
    handle: async (deps, user) => ({
      profile: presentSellerProfile(await getProfileByUser(deps.db, user.id)),
    }),
  });

  endpoint(router, R.sellerProfileUpdate, {
    input: SellerProfileUpdateSchema,
    handle: async (deps, user, input) => {
      const row = await updateProfile(deps.db, user.id, input, deps.clock.now());
      return { profile: presentSellerProfile(row) };
    },
  });

  productsRoutes(router, opts);
};
