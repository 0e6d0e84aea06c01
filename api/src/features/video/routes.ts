import { API_ROUTES as R } from '../../../contract/routes';
import { videoTokenQuerySchema } from '../../../contract/video';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { createVideoProviders } from './providers';
import { issueIceServers, issueVideoToken } from './service';

/** Routes of the video area. */
export const videoFeature: Feature = (router, { deps }) => {
  const providers = createVideoProviders(deps.config, () => deps.clock.now());

  endpoint(router, R.videoToken, {
    input: videoTokenQuerySchema,
    handle: (deps, user, { callId }) => issueVideoToken(deps.db, providers, user.id, callId),
  });

  endpoint(router, R.videoIceServers, {
    input: videoTokenQuerySchema,
    handle: (deps, user, { callId }) => issueIceServers(deps, providers, user.id, callId),
  });
};
