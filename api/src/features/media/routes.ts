import { API_ROUTES as R } from '../../../contract/routes';
import type { AppContext, Feature } from '../../http/context';
import { rawEndpoint } from '../../http/endpoint';
import { notFound } from '../../http/errors';
import { deriveVariant, findMedia, mediaExists } from './service';

const KEY = /^[A-Za-z0-9_-]{1,80}\.(webp|avif|png|jpg|gif|pdf)$/;

// Media bytes are user-supplied: they must never be run as a document or script, nor sniffed as one.
function lockDown(ctx: AppContext): void {
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.set('X-Content-Type-Options', 'nosniff');
}

/** Routes of the media area: stored images at stable, content-hashed, immutable URLs. */
export const mediaFeature: Feature = (router) => {
  // Bytes, not JSON: the one route whose handler sees the request itself.
  rawEndpoint(router, R.media, async (ctx) => {
    lockDown(ctx);
    const key = ctx.params.key;
    if (!KEY.test(key)) throw notFound('Image not found.');
    // Keys are content hashes, so the key itself is a strong validator.
    const etag = `"${key}"`;
    const inm = ctx.get('If-None-Match');
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      // A derived width the browser holds but this database has not made yet is made now (it must exist).
      if (!(await mediaExists(ctx.deps.db, key)) && !(await deriveVariant(ctx.deps.db, key)))
        throw notFound('Image not found.');
      ctx.status = 304;
      ctx.set('ETag', etag);
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      return;
    }
    // Widths for srcset are made from the stored image on first request (contract/media.ts, MEDIA_WIDTHS).
    const media = (await findMedia(ctx.deps.db, key)) ?? (await deriveVariant(ctx.deps.db, key));
    if (!media) throw notFound('Image not found.');
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    // A certificate PDF downloads: a sandboxed document is no place for the browser's PDF viewer.
    if (media.contentType === 'application/pdf')
      ctx.set('Content-Disposition', 'attachment; filename="certificate.pdf"');
    ctx.type = media.contentType;
    ctx.body = media.data;
  });
};
