/** An image stored by the server, as product create/update records it. */
export interface StoredImage {
  /** Content hash of the original bytes; both renditions' media keys start with it. */
  key: string;
  /** URL of the card rendition (WebP, fits inside 480×480). */
  cardUrl: string;
  /** URL of the detail rendition (WebP, fits inside 1200×1200). */
  detailUrl: string;
  /** Width of the card rendition in pixels, so the grid can reserve space. */
  width: number;
  /** Height of the card rendition in pixels. */
  height: number;
  /** A tiny blurred preview (a data: URI of a 16 px WebP, about 200 bytes) shown while the image loads. */
  placeholder: string;
}

/** The one message for any refused image (docs/product-rules.md §5 product create). */
export const INVALID_IMAGE_MESSAGE = 'Invalid image format. Use a PNG, JPEG, WebP or GIF image.';

/** Rendition bounds (fit inside, never enlarged). */
export const MEDIA_RENDITIONS = {
  card: { width: 480, height: 480 },
  detail: { width: 1200, height: 1200 },
} as const;

/** Path prefix under which stored media is served. */
export const MEDIA_PATH_PREFIX = '/media/';

/**
 * Widths the server derives from a stored image on first request (`/media/<hash>-w<width>.<webp|avif>`), for
 * `srcset`: a phone's two-column grid needs 240–480 px, a product page up to 1200. Other widths are refused, so
 * nobody can make the server encode arbitrary sizes.
 */
export const MEDIA_WIDTHS = [240, 360, 480, 720, 960, 1200] as const;
export type MediaWidth = (typeof MEDIA_WIDTHS)[number];
export type MediaVariantFormat = 'webp' | 'avif';

/** A derived width of a stored image: its content hash, the width and the format. */
export const MEDIA_VARIANT_KEY = /^([0-9a-f]{32})-w(\d{3,4})\.(webp|avif)$/;

/** Where a derived width of a stored image is served. */
export const mediaVariantUrl = (hash: string, width: MediaWidth, format: MediaVariantFormat) =>
  `${MEDIA_PATH_PREFIX}${hash}-w${width}.${format}`;

const STORED_RENDITION_URL = /^\/media\/([0-9a-f]{32})-(?:card|detail)\.webp$/;

/** `srcset` values for one stored image, AVIF and WebP, up to `maxWidth`; null for an image not stored by us. */
export function mediaSrcSets(
  url: string,
  maxWidth: MediaWidth = 1200,
): { avif: string; webp: string } | null {
  const m = STORED_RENDITION_URL.exec(url);
  if (!m) return null;
  const hash = m[1]!;
  const widths = MEDIA_WIDTHS.filter((w) => w <= maxWidth);
  const set = (format: MediaVariantFormat) =>
    widths.map((w) => `${mediaVariantUrl(hash, w, format)} ${w}w`).join(', ');
  return { avif: set('avif'), webp: set('webp') };
}
