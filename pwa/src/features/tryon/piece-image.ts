import { DEFAULT_ANCHOR, type TryOnKind } from './geometry';
import type { TryOnPiece } from './engine';
import { pieceDataUrl } from './pieces';

function loadImage(src: string): Promise<HTMLImageElement> {
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

/** The piece to draw: the drawn front view of its kind, at the product's millimetres. */
export async function productPiece(
  kind: TryOnKind,
  product: { width: number | null; height: number | null },
): Promise<TryOnPiece> {
  return {
    kind,
    widthMm: product.width,
    heightMm: product.height,
    image: await loadImage(pieceDataUrl(kind)),
    anchor: DEFAULT_ANCHOR[kind],
  };
}
