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
