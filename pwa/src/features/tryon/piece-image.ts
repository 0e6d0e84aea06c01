import type { TryOnImage } from '../../../../api/contract/catalog';
import { METAL_SHADES, metalTone } from '../../../../api/contract/piece-look';
import { DEFAULT_ANCHOR, type TryOnKind } from './geometry';
import type { TryOnPiece } from './engine';
import { pieceDataUrl } from './pieces';

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image'));
    img.src = src;
  });
}

/** The front camera at 640×480 (what the figures in docs/benchmarks.md are measured at). */
export function openFrontCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new DOMException('none', 'NotFoundError'));
  return navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } },
    audio: false,
  });
}

/**
 * The piece to draw: the product's own try-on image (its front view on a transparent background, held at its
 * anchor and kept in its proportions) when it has one, else the drawn front view of its kind; at the product's
 * millimetres either way, in the colour of its metal. An own image that cannot load falls back to the drawn piece.
 */
export async function productPiece(
  kind: TryOnKind,
  product: {
    width: number | null;
    height: number | null;
    material?: string;
    purity?: string | null;
    tryOnImage?: TryOnImage | null;
  },
): Promise<TryOnPiece> {
  // The metal's colour (a pendant's chain, the drawn piece): gold of any karat gold, silver silver, platinum
  // grey-white (api/contract/piece-look.ts).
  const tone = metalTone(product.material ?? 'gold', product.purity);
  const chain = METAL_SHADES[tone][1];
  const own = product.tryOnImage;
  if (own) {
    const image = await loadImage(own.url).catch(() => null);
    if (image)
      return {
        kind,
        widthMm: product.width,
        heightMm: product.height,
        image,
        anchor: { x: own.anchorX, y: own.anchorY },
        aspect: (image.naturalWidth || own.width) / (image.naturalHeight || own.height),
        own: true,
        chain,
      };
  }
  return {
    kind,
    widthMm: product.width,
    heightMm: product.height,
    image: await loadImage(pieceDataUrl(kind, tone)),
    anchor: DEFAULT_ANCHOR[kind],
    aspect: null,
    own: false,
    chain,
  };
}

/** This module's file (a build's chunk): one of the try-on's code files kept for offline use (model-load.ts). */
export const PIECE_IMAGE_CODE_URL = import.meta.url;
