/**
 * Where a piece of jewellery goes on a face, from the 468 face-mesh landmarks of one frame: pure arithmetic, no
 * DOM, so it is tested from landmark fixtures (tests/unit/tryon-geometry.test.ts) and used by the renderer
 * (render.ts) for every frame.
 *
 * Coordinates: landmarks are normalised as the face-mesh model gives them (x and y in 0..1 of the frame's width
 * and height, z the depth in roughly x's scale, smaller is nearer the camera). Placements are in the frame's
 * pixels, unmirrored (the picture a call sends; the self view mirrors it with CSS).
 */

export interface Landmark {
  x: number;
  y: number;
  z: number;
}

/** The four kinds of piece that can be tried on, from the product's category. */
export type TryOnKind = 'earrings' | 'nose_pin' | 'necklace' | 'pendant';

const KIND_OF_CATEGORY: Record<string, TryOnKind> = {
  earrings: 'earrings',
  nose_pins: 'nose_pin',
  necklaces: 'necklace',
  pendants: 'pendant',
};

/** The try-on kind of a product category, or null when the category cannot be tried on. */
export function tryOnKind(category: string): TryOnKind | null {
  return KIND_OF_CATEGORY[category] ?? null;
}

/** Real size in millimetres when the product does not give its own (a typical piece of the kind). */
export const DEFAULT_SIZE_MM: Record<TryOnKind, { width: number; height: number }> = {
  earrings: { width: 16, height: 36 },
  nose_pin: { width: 5, height: 5 },
  necklace: { width: 130, height: 110 },
  pendant: { width: 18, height: 28 },
};

/**
 * Where a try-on image is held (fractions of its width and height): an earring by the top of its hook, a nose
 * pin by its centre, a necklace by the middle of its top edge (the back of the neck), a pendant by its bale.
 * The drawn pieces are held here; a product's own try-on image carries its own anchor, set by the seller.
 */
export const DEFAULT_ANCHOR: Record<TryOnKind, { x: number; y: number }> = {
  earrings: { x: 0.5, y: 0.02 },
  nose_pin: { x: 0.5, y: 0.5 },
  necklace: { x: 0.5, y: 0.05 },
  pendant: { x: 0.5, y: 0.04 },
};

/** An adult face's width between the cheekbone edges (landmarks 234 and 454), the scale's reference. */
export const FACE_WIDTH_MM = 140;
/** Turned further than this (degrees), the far ear is behind the cheek and its earring is not drawn. */
export const EAR_HIDDEN_YAW_DEG = 40;
/** From this turn on the far earring fades out, so it does not blink at the threshold. */
export const EAR_FADE_YAW_DEG = 28;

/** Face-mesh landmark indices used here (the canonical 468-point mesh). */
export const LM = {
  forehead: 10,
  chin: 152,
  /** The edge of the face at the cheekbone on the person's right (the picture's left, unmirrored). */
  rightCheek: 234,
  leftCheek: 454,
  /** On the jaw below each ear. */
  rightJaw: 132,
  leftJaw: 361,
  rightEyeOuter: 33,
  leftEyeOuter: 263,
  noseTip: 1,
  /** The wing of the left nostril, where a nose pin is usually worn. */
  leftNostril: 294,
} as const;

export interface Placement {
  part: 'right-ear' | 'left-ear' | 'nose' | 'neck';
  /** Where the image's anchor goes, in frame pixels. */
  x: number;
  y: number;
  /** The drawn size in pixels. */
  width: number;
  height: number;
  /** Radians, clockwise in the picture: the image is turned about its anchor. */
  rotation: number;
  /** 0 (hidden) to 1. */
  opacity: number;
}

export interface PieceSpec {
  kind: TryOnKind;
  /** Millimetres; null falls back to DEFAULT_SIZE_MM. */
  widthMm: number | null;
  heightMm: number | null;
  /**
   * The width : height of the piece's own try-on image, when it has one: the image is drawn as large as fits
   * the piece's millimetres without being stretched. Absent for the drawn pieces, which fill them.
   */
  aspect?: number | null;
}

/** The drawn size in millimetres: the piece's own (or its kind's), fitted to its image's proportions. */
export function pieceSizeMm(piece: PieceSpec): { width: number; height: number } {
  const mm = DEFAULT_SIZE_MM[piece.kind];
  const width = piece.widthMm ?? mm.width;
  const height = piece.heightMm ?? mm.height;
  const aspect = piece.aspect;
  if (!aspect || !Number.isFinite(aspect) || aspect <= 0) return { width, height };
  return width / height > aspect ? { width: height * aspect, height } : { width, height: width / aspect };
}

export interface FacePose {
  /** Pixels per millimetre at the face. */
  pxPerMm: number;
  /** Head roll in radians (the eye line's tilt in the picture, clockwise positive). */
  roll: number;
  /** Head yaw in radians: positive when the person's left cheek is turned away from the camera. */
  yaw: number;
  /** Face height forehead → chin, in pixels. */
  faceHeight: number;
}

type P3 = [number, number, number];

function px(lm: readonly Landmark[], i: number, w: number, h: number): P3 {
  const p = lm[i];
  if (!p) throw new RangeError(`landmark ${i} missing`);
  // z is in x's scale (the frame's width).
  return [p.x * w, p.y * h, p.z * w];
}

const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len3 = (a: P3) => Math.hypot(a[0], a[1], a[2]);
const lerp = (a: P3, b: P3, t: number): P3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** The face's scale, roll and yaw from one frame's landmarks. */
export function facePose(lm: readonly Landmark[], width: number, height: number): FacePose {
  const r = px(lm, LM.rightCheek, width, height);
  const l = px(lm, LM.leftCheek, width, height);
  const across = sub(l, r);
  // The 3D distance keeps its length when the head turns (the 2D width shrinks with the cosine of the turn).
  const faceWidth = len3(across);
  const re = px(lm, LM.rightEyeOuter, width, height);
  const le = px(lm, LM.leftEyeOuter, width, height);
  const roll = Math.atan2(le[1] - re[1], le[0] - re[0]);
  // The cheek line's depth: the left cheek farther (larger z) than the right means the face turned to its right.
  const yaw = Math.asin(Math.max(-1, Math.min(1, across[2] / (faceWidth || 1))));
  const f = px(lm, LM.forehead, width, height);
  const c = px(lm, LM.chin, width, height);
  return { pxPerMm: faceWidth / FACE_WIDTH_MM, roll, yaw, faceHeight: Math.hypot(c[0] - f[0], c[1] - f[1]) };
}

const DEG = Math.PI / 180;

/** How much of the earring on one side shows at this yaw (1 facing, 0 behind the cheek). */
export function earOpacity(yaw: number, side: 'left' | 'right'): number {
  // Positive yaw turns the left cheek away: the left ear goes behind it.
  const away = side === 'left' ? yaw : -yaw;
  const deg = away / DEG;
  if (deg <= EAR_FADE_YAW_DEG) return 1;
  if (deg >= EAR_HIDDEN_YAW_DEG) return 0;
  return (EAR_HIDDEN_YAW_DEG - deg) / (EAR_HIDDEN_YAW_DEG - EAR_FADE_YAW_DEG);
}

/**
 * The placements of a piece on the face: two for earrings, one otherwise. An earring hangs from the ear lobe
 * (a little below the cheekbone edge, toward the jaw) and straight down, as gravity holds it; a nose pin sits
 * on the left nostril and a necklace or pendant below the chin, both turned with the head's roll. Sizes come
 * from the piece's millimetres and the face's pixels per millimetre.
 */
export function placePiece(
  lm: readonly Landmark[],
  width: number,
  height: number,
  piece: PieceSpec,
): Placement[] {
  const pose = facePose(lm, width, height);
  const mm = pieceSizeMm(piece);
  const w = mm.width * pose.pxPerMm;
  const h = mm.height * pose.pxPerMm;
  const box = (part: Placement['part'], at: P3, rotation: number, opacity = 1): Placement => ({
    part,
    x: at[0],
    y: at[1],
    width: w,
    height: h,
    rotation,
    opacity,
  });
  switch (piece.kind) {
    case 'earrings': {
      const lobe = (cheek: number, jaw: number) => {
        const c = px(lm, cheek, width, height);
        const j = px(lm, jaw, width, height);
        // The lobe is below the cheekbone edge, about a third of the way down to the jaw, and 4 mm outside it.
        const p = lerp(c, j, 0.35);
        const outward = Math.sign(c[0] - px(lm, LM.noseTip, width, height)[0]) || 1;
        return [p[0] + outward * 4 * pose.pxPerMm * Math.cos(pose.yaw), p[1], p[2]] as P3;
      };
      return [
        box('right-ear', lobe(LM.rightCheek, LM.rightJaw), 0, earOpacity(pose.yaw, 'right')),
        box('left-ear', lobe(LM.leftCheek, LM.leftJaw), 0, earOpacity(pose.yaw, 'left')),
      ];
    }
    case 'nose_pin':
      return [box('nose', px(lm, LM.leftNostril, width, height), pose.roll)];
    case 'necklace':
    case 'pendant': {
      // Below the chin along the face's own vertical (which the roll tilts): a necklace's top rests on the
      // base of the neck, a pendant's bale hangs lower on its chain.
      const f = px(lm, LM.forehead, width, height);
      const c = px(lm, LM.chin, width, height);
      const down: P3 = [(c[0] - f[0]) / pose.faceHeight, (c[1] - f[1]) / pose.faceHeight, 0];
      const drop = (piece.kind === 'necklace' ? 0.45 : 0.95) * pose.faceHeight;
      return [box('neck', [c[0] + down[0] * drop, c[1] + down[1] * drop, c[2]], pose.roll)];
    }
  }
}

/**
 * The corners of a placement's drawn image (for tests and hit checks): the image of `w`×`h` held at its anchor
 * (fractions), turned by the rotation.
 */
export function placedCorners(p: Placement, anchor: { x: number; y: number }): [number, number][] {
  const cos = Math.cos(p.rotation);
  const sin = Math.sin(p.rotation);
  const corners: [number, number][] = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  return corners.map(([u, v]) => {
    const dx = (u - anchor.x) * p.width;
    const dy = (v - anchor.y) * p.height;
    return [p.x + dx * cos - dy * sin, p.y + dx * sin + dy * cos];
  });
}
