import type { Feature } from '../../app';
import { videoTokenQuerySchema } from '../../../contract/video';
import { currentUser, requireAuth } from '../../http/auth';
import { parseQuery } from '../../http/validate';
import { createVideoProviders } from './providers';
import { issueVideoToken } from './service';

/** Routes of the video area. */
export const videoFeature: Feature = (router, { deps }) => {
  const providers = createVideoProviders(deps.config);

  router.get('/_api/video/token', requireAuth(), async (ctx) => {
    const { callId } = parseQuery(ctx, videoTokenQuerySchema);
    ctx.body = await issueVideoToken(ctx.deps.db, providers, currentUser(ctx).id, callId);
  });
};
