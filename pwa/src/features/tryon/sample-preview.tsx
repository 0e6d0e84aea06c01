import { METAL_SHADES } from '../../../../api/contract/piece-look';
import { useEffect, useRef, useState } from 'react';
import { drawComposite, type TryOnPiece } from './engine';
import { placePiece, placedCorners, type Landmark, type TryOnKind } from './geometry';
import { loadImage } from './piece-image';
import { drawSampleFace } from './sample-face-drawing';
import sample from './sample-face.json';

/**
 * The sample face: face-mesh landmarks recorded once (scripts/record-sample-face.ts) and a face drawn from them
 * (sample-face-drawing.ts), so a try-on image is previewed with the very geometry of the live try-on, with no
 * camera, no model and no photograph of anyone.
 */
const SAMPLE_LANDMARKS: Landmark[] = [];
for (let i = 0; i < sample.landmarks.length; i += 3)
  SAMPLE_LANDMARKS.push({
    x: sample.landmarks[i]!,
    y: sample.landmarks[i + 1]!,
    z: sample.landmarks[i + 2]!,
  });

/** The drawn sample face, made once (in the browser, on first use). */
let drawnFace: HTMLCanvasElement | null = null;
const sampleFace = () => (drawnFace ??= drawSampleFace(SAMPLE_LANDMARKS, sample.width, sample.height));

/** Side of the preview in CSS pixels; drawn at twice that for sharp pieces on phones. */
const SIDE = 288;
const SCALE = 2;

/**
 * The part of the sample picture the preview shows: the face for earrings and nose pins, the neck and chest for
 * necklaces and pendants; square, around the piece, inside the picture.
 */
function viewBox(kind: TryOnKind, corners: [number, number][]): { x: number; y: number; side: number } {
  const at = (i: number) => SAMPLE_LANDMARKS[i]!;
  const faceW = Math.abs(at(454).x - at(234).x) * sample.width;
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  let cx: number;
  let cy: number;
  let side: number;
  if (kind === 'earrings' || kind === 'nose_pin') {
    cx = ((at(234).x + at(454).x) / 2) * sample.width;
    cy = ((at(10).y + at(152).y) / 2) * sample.height;
    side = Math.max(faceW * 1.7, Math.max(...ys) - Math.min(...ys) + 40);
  } else {
    cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    cy = (Math.min(...ys, at(152).y * sample.height) + Math.max(...ys)) / 2;
    side = Math.max(faceW * 1.7, (Math.max(...xs) - Math.min(...xs)) * 1.3, (Math.max(...ys) - cy) * 2.4);
  }
  side = Math.min(side, sample.width, sample.height);
  return {
    x: Math.max(0, Math.min(sample.width - side, cx - side / 2)),
    y: Math.max(0, Math.min(sample.height - side, cy - side / 2)),
    side,
  };
}

export interface SamplePreviewProps {
  kind: TryOnKind;
  /** The try-on image: a data URI being chosen, or the stored /media/ path. */
  image: string;
  anchorX: number;
  anchorY: number;
  widthMm: number | null;
  heightMm: number | null;
  label: string;
}

/**
 * The piece on the sample face, drawn as the live try-on draws it (engine.ts drawComposite, geometry.ts
 * placePiece): redrawn whenever the image, its anchor or the piece's millimetres change.
 */
export default function SamplePreview({
  kind,
  image,
  anchorX,
  anchorY,
  widthMm,
  heightMm,
  label,
}: SamplePreviewProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [loaded, setLoaded] = useState<{ src: string; img: HTMLImageElement } | null>(null);
  // The image of the current choice only (a previous choice still loading is not drawn).
  const piece = loaded?.src === image ? loaded.img : null;

  useEffect(() => {
    let live = true;
    void loadImage(image)
      .then((img) => live && setLoaded({ src: image, img }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [image]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || !piece) return;
    const face = sampleFace();
    const g = c.getContext('2d')!;
    const tryOn: TryOnPiece = {
      kind,
      widthMm,
      heightMm,
      image: piece,
      anchor: { x: anchorX, y: anchorY },
      aspect: piece.naturalWidth / piece.naturalHeight,
      own: true,
      // The form's preview shows where the picture goes; a pendant's chain is drawn gold there.
      chain: METAL_SHADES.gold[1],
    };
    const placements = placePiece(SAMPLE_LANDMARKS, sample.width, sample.height, {
      kind,
      widthMm,
      heightMm,
      aspect: tryOn.aspect,
    });
    const corners = placements.flatMap((p) => placedCorners(p, tryOn.anchor));
    const view = viewBox(kind, corners);
    const k = c.width / view.side;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, c.width, c.height);
    g.setTransform(k, 0, 0, k, -view.x * k, -view.y * k);
    drawComposite(g, face, sample.width, sample.height, tryOn, placements);
    g.setTransform(1, 0, 0, 1, 0, 0);
    // For tests: where each piece is drawn, in the canvas's own pixels.
    c.dataset.placements = JSON.stringify(
      placements.map((p) => ({
        part: p.part,
        x: Math.round((p.x - view.x) * k),
        y: Math.round((p.y - view.y) * k),
        w: Math.round(p.width * k),
        h: Math.round(p.height * k),
      })),
    );
    c.dataset.anchor = `${anchorX},${anchorY}`;
  }, [piece, kind, anchorX, anchorY, widthMm, heightMm]);

  return (
    <canvas
      ref={canvas}
      width={SIDE * SCALE}
      height={SIDE * SCALE}
      role="img"
      aria-label={label}
      data-testid="try-on-preview"
      className="aspect-square w-full max-w-72 rounded-md bg-stone-200"
    />
  );
}
