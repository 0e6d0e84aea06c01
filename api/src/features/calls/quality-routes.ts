import { callQualityReportSchema } from '../../../contract/call-quality';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { callQualitySummary, recordCallQuality } from './quality';

/** Each call's quality record: reported by its two participants, summarised for the admin dashboard. */
export const callQualityFeature: Feature = (router) => {
  // Also the target of navigator.sendBeacon when the page closes (a same-origin JSON Blob with the cookie).
  endpoint(router, R.callQuality, {
    input: callQualityReportSchema,
    handle: (deps, user, report) => recordCallQuality(deps.db, user.id, report, deps.clock.now()),
  });

  endpoint(router, R.adminCallQuality, {
    handle: (deps) => callQualitySummary(deps.db, deps.clock.now()),
  });
};
