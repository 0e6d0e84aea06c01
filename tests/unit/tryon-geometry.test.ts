import { describe, expect, it } from 'vitest';
import {
  EAR_FADE_YAW_DEG,
  EAR_HIDDEN_YAW_DEG,
  FACE_WIDTH_MM,
  LM,
  facePose,
  pieceSizeMm,
  placedCorners,
  placePiece,
  tryOnKind,
  type Landmark,
} from '../../pwa/src/features/tryon/geometry';
import sample from '../../pwa/src/features/tryon/sample-face.json';

/**
 * Landmark fixtures: the face-mesh points the geometry reads, placed on a head of FACE_WIDTH_MM (a simple
 * 3D model in millimetres, y down, z away from the camera), turned by yaw and roll, then projected into a
 * 640×480 frame at `pxPerMm` and normalised as the model gives them (z in x's scale).
 */
const HEAD: Record<number, [number, number, number]> = {
  [LM.forehead]: [0, -95, -10],
  [LM.chin]: [0, 85, -5],
  [LM.rightCheek]: [-70, 0, 45],
  [LM.leftCheek]: [70, 0, 45],
  [LM.rightJaw]: [-60, 45, 40],
  [LM.leftJaw]: [60, 45, 40],
  [LM.rightEyeOuter]: [-45, -25, 10],
  [LM.leftEyeOuter]: [45, -25, 10],
  [LM.noseTip]: [0, 15, -30],
  [LM.leftNostril]: [10, 22, -15],
};
const W = 640;
const H = 480;

function face(opts: { yawDeg?: number; rollDeg?: number; pxPerMm?: number; cx?: number; cy?: number } = {}) {
  const yaw = ((opts.yawDeg ?? 0) * Math.PI) / 180;
  const roll = ((opts.rollDeg ?? 0) * Math.PI) / 180;
  const s = opts.pxPerMm ?? 1.2;
  const cx = opts.cx ?? 320;
  const cy = opts.cy ?? 220;
  const lm: Landmark[] = Array.from({ length: 468 }, () => ({ x: 0.5, y: 0.5, z: 0 }));
  for (const [i, [x0, y0, z0]] of Object.entries(HEAD)) {
    // Yaw about the vertical axis (positive turns the left cheek away: its z grows), then roll in the picture.
    const x1 = x0 * Math.cos(yaw) - z0 * Math.sin(yaw);
    const z1 = x0 * Math.sin(yaw) + z0 * Math.cos(yaw);
    const x2 = x1 * Math.cos(roll) - y0 * Math.sin(roll);
    const y2 = x1 * Math.sin(roll) + y0 * Math.cos(roll);
    lm[Number(i)] = { x: (cx + x2 * s) / W, y: (cy + y2 * s) / H, z: (z1 * s) / W };
  }
  return lm;
}

describe('try-on geometry', () => {
  it('knows which categories can be tried on', () => {
    expect(tryOnKind('earrings')).toBe('earrings');
    expect(tryOnKind('nose_pins')).toBe('nose_pin');
    expect(tryOnKind('necklaces')).toBe('necklace');
    expect(tryOnKind('pendants')).toBe('pendant');
    expect(tryOnKind('rings')).toBeNull();
  });

  it('scales a piece from its millimetres and the face size, and keeps the scale when the head turns', () => {
    const near = placePiece(face({ pxPerMm: 1.5 }), W, H, { kind: 'earrings', widthMm: 20, heightMm: 40 });
    expect(near[0]!.width).toBeCloseTo(30, 5);
    expect(near[0]!.height).toBeCloseTo(60, 5);
    const far = placePiece(face({ pxPerMm: 0.75 }), W, H, { kind: 'earrings', widthMm: 20, heightMm: 40 });
    expect(far[0]!.height).toBeCloseTo(30, 5);
    // The cheek-to-cheek distance is measured in 3D: turning 25° changes the picture's width, not the scale.
    expect(facePose(face({ pxPerMm: 1.5, yawDeg: 25 }), W, H).pxPerMm).toBeCloseTo(1.5, 5);
    // Without the product's own size a typical piece of the kind is drawn.
    const pin = placePiece(face({ pxPerMm: 2 }), W, H, { kind: 'nose_pin', widthMm: null, heightMm: null });
    expect(pin[0]!.width).toBeCloseTo(10, 5);
    expect(FACE_WIDTH_MM).toBe(140);
  });

  it('hangs earrings at the lobes, below the cheek edge and outside the face, straight down', () => {
    const lm = face({ pxPerMm: 1.2 });
    const [right, left] = placePiece(lm, W, H, { kind: 'earrings', widthMm: null, heightMm: null });
    expect(right!.part).toBe('right-ear');
    const cheekR = { x: lm[LM.rightCheek]!.x * W, y: lm[LM.rightCheek]!.y * H };
    const cheekL = { x: lm[LM.leftCheek]!.x * W, y: lm[LM.leftCheek]!.y * H };
    expect(right!.x).toBeLessThan(cheekR.x);
    expect(left!.x).toBeGreaterThan(cheekL.x);
    expect(right!.y).toBeGreaterThan(cheekR.y);
    expect(right!.y).toBeLessThan(lm[LM.rightJaw]!.y * H);
    expect(right!.opacity).toBe(1);
    expect(left!.opacity).toBe(1);
    // Tilting the head moves the lobes but the earrings still hang with gravity.
    const tilted = placePiece(face({ rollDeg: 15 }), W, H, {
      kind: 'earrings',
      widthMm: null,
      heightMm: null,
    });
    expect(tilted[0]!.rotation).toBe(0);
    expect(tilted[1]!.y).toBeGreaterThan(tilted[0]!.y);
  });

  it('turns a necklace, a pendant and a nose pin with the head roll', () => {
    for (const rollDeg of [-20, 0, 12]) {
      const lm = face({ rollDeg });
      expect((facePose(lm, W, H).roll * 180) / Math.PI).toBeCloseTo(rollDeg, 5);
      for (const kind of ['necklace', 'pendant', 'nose_pin'] as const) {
        const [p] = placePiece(lm, W, H, { kind, widthMm: null, heightMm: null });
        expect((p!.rotation * 180) / Math.PI).toBeCloseTo(rollDeg, 5);
      }
    }
  });

  it('puts a necklace below the chin along the tilted face, and a pendant lower', () => {
    const lm = face({ rollDeg: 20 });
    const chin = { x: lm[LM.chin]!.x * W, y: lm[LM.chin]!.y * H };
    const [neck] = placePiece(lm, W, H, { kind: 'necklace', widthMm: null, heightMm: null });
    const [pendant] = placePiece(lm, W, H, { kind: 'pendant', widthMm: null, heightMm: null });
    expect(neck!.y).toBeGreaterThan(chin.y);
    // Rolled clockwise by 20°, "down the face" leans to the picture's left.
    expect(neck!.x).toBeLessThan(chin.x);
    expect(Math.hypot(pendant!.x - chin.x, pendant!.y - chin.y)).toBeGreaterThan(
      Math.hypot(neck!.x - chin.x, neck!.y - chin.y) * 1.5,
    );
  });

  it('sits a nose pin on the left nostril', () => {
    const lm = face();
    const [pin] = placePiece(lm, W, H, { kind: 'nose_pin', widthMm: null, heightMm: null });
    expect(pin!.x).toBeCloseTo(lm[LM.leftNostril]!.x * W, 5);
    expect(pin!.y).toBeCloseTo(lm[LM.leftNostril]!.y * H, 5);
  });

  it('hides the far earring behind the cheek when the head turns, fading it on the way', () => {
    expect(facePose(face({ yawDeg: 30 }), W, H).yaw).toBeCloseTo((30 * Math.PI) / 180, 5);
    const at = (yawDeg: number) =>
      placePiece(face({ yawDeg }), W, H, { kind: 'earrings', widthMm: null, heightMm: null });
    // Turned to the person's right (left cheek away): the left earring goes, the right one stays.
    const [r1, l1] = at(EAR_HIDDEN_YAW_DEG + 5);
    expect(l1!.opacity).toBe(0);
    expect(r1!.opacity).toBe(1);
    const [r2, l2] = at(-(EAR_HIDDEN_YAW_DEG + 5));
    expect(r2!.opacity).toBe(0);
    expect(l2!.opacity).toBe(1);
    const [, lHalf] = at((EAR_FADE_YAW_DEG + EAR_HIDDEN_YAW_DEG) / 2);
    expect(lHalf!.opacity).toBeGreaterThan(0.3);
    expect(lHalf!.opacity).toBeLessThan(0.7);
    const [r3, l3] = at(10);
    expect([r3!.opacity, l3!.opacity]).toEqual([1, 1]);
  });

  it("draws a product's own image unstretched inside its millimetres, held at the anchor the seller set", () => {
    // A tall earring picture (1 : 2) for a piece said to be 20 × 30 mm: 15 × 30 mm, not stretched to 20 wide.
    expect(pieceSizeMm({ kind: 'earrings', widthMm: 20, heightMm: 30, aspect: 0.5 })).toEqual({
      width: 15,
      height: 30,
    });
    // A wide necklace picture for a piece of its kind's size (130 × 110): the width holds, the height shrinks.
    const wide = pieceSizeMm({ kind: 'necklace', widthMm: null, heightMm: null, aspect: 2 });
    expect(wide).toEqual({ width: 130, height: 65 });
    // No image (a drawn piece): the millimetres as they are.
    expect(pieceSizeMm({ kind: 'pendant', widthMm: 18, heightMm: 40 })).toEqual({ width: 18, height: 40 });

    const lm = face({ pxPerMm: 1.5 });
    const pose = facePose(lm, W, H);
    const [right] = placePiece(lm, W, H, { kind: 'earrings', widthMm: 20, heightMm: 30, aspect: 0.5 });
    expect(right!.width).toBeCloseTo(15 * pose.pxPerMm, 6);
    expect(right!.height).toBeCloseTo(30 * pose.pxPerMm, 6);
    // The anchor point of the image lands on the lobe whatever the anchor: a stud at the top middle hangs the
    // picture below the lobe; an anchor a quarter across and a tenth down shifts it left and up by as much.
    const top = placedCorners(right!, { x: 0.5, y: 0 });
    expect(top[0]![0]).toBeCloseTo(right!.x - right!.width / 2, 6);
    expect(top[0]![1]).toBeCloseTo(right!.y, 6);
    const off = placedCorners(right!, { x: 0.25, y: 0.1 });
    expect(off[0]![0]).toBeCloseTo(right!.x - right!.width * 0.25, 6);
    expect(off[0]![1]).toBeCloseTo(right!.y - right!.height * 0.1, 6);
    // Turned with the head (a nose pin under roll): the anchor stays where the placement is, the corners turn.
    const [nose] = placePiece(face({ rollDeg: 20 }), W, H, {
      kind: 'nose_pin',
      widthMm: 8,
      heightMm: 8,
      aspect: 1,
    });
    const c = placedCorners(nose!, { x: 0.5, y: 0.5 });
    const centre = [(c[0]![0] + c[2]![0]) / 2, (c[0]![1] + c[2]![1]) / 2];
    expect(centre[0]).toBeCloseTo(nose!.x, 6);
    expect(centre[1]).toBeCloseTo(nose!.y, 6);
    expect(Math.atan2(c[1]![1] - c[0]![1], c[1]![0] - c[0]![0])).toBeCloseTo((20 * Math.PI) / 180, 2);
  });
});

/*
 * Placement on recorded landmarks, within 3 mm. The input is the sample face the product form's preview uses
 * (pwa/src/features/tryon/sample-face.json: what MediaPipe's face mesh found on a real photograph, recorded by
 * scripts/record-sample-face.ts), a 384×480 frame. The expected points are measured by hand from that file's
 * raw coordinates at the named face-mesh indices, following docs/product-rules.md §16, without the module's
 * helpers or its LM table:
 *
 *   234 right cheekbone edge (119.31, 128.11, z 61.21) px   454 left cheekbone edge (220.11, 117.41, z 24.88)
 *   132 right jaw below the ear (126.18, 150.24, z 64.20)    361 left jaw (220.45, 143.04, z 30.57)
 *    10 forehead top (135.55, 74.40)    152 chin (162.51, 208.22)    1 nose tip (138.97, 156.96)
 *   294 left nostril wing (161.24, 152.98)
 *
 * Scale: 234 ↔ 454 is 107.68 px in 3D (z in x's pixels) for a 140 mm face: 0.7691 px/mm, so 3 mm is 2.31 px.
 * Yaw: asin((24.88 − 61.21) / 107.68) = −19.7° (the person's right cheek turned away), cos 0.941.
 * Ear lobe: a third (0.35) of the way from the cheekbone edge to the jaw, then 4 mm (4 × 0.7691 × 0.941 =
 * 2.90 px) outward in the picture: right (119.31 + 0.35 × 6.87 − 2.90, 128.11 + 0.35 × 22.13) = (118.82, 135.86),
 * left (220.11 + 0.35 × 0.34 + 2.90, 117.41 + 0.35 × 25.63) = (223.13, 126.38).
 * Neck: forehead → chin is (26.96, 133.82), 136.51 px long; the necklace's top 0.45 of it below the chin along
 * that line: (162.51 + 0.45 × 26.96, 208.22 + 0.45 × 133.82) = (174.64, 268.44); the pendant's bale 0.95:
 * (188.12, 335.36). Nose pin: on 294, (161.24, 152.98).
 *
 * Each bound is 3 mm at this scale, so a lobe moved toward the jaw, an earring 40 mm out, a necklace dropped by
 * whole face heights or any piece moved by 5 mm fails here. Recording the sample face again changes these
 * figures: measure them again from the new file.
 */
const SAMPLE_W = sample.width;
const SAMPLE_H = sample.height;
function recorded(): Landmark[] {
  const out: Landmark[] = [];
  for (let i = 0; i < sample.landmarks.length; i += 3) {
    out.push({ x: sample.landmarks[i]!, y: sample.landmarks[i + 1]!, z: sample.landmarks[i + 2]! });
  }
  return out;
}
/** MediaPipe face-mesh indices, named here on their own (not the module's table). */
const MESH = {
  forehead: 10,
  chin: 152,
  noseTip: 1,
  leftNostrilWing: 294,
  rightCheekbone: 234,
  leftCheekbone: 454,
  rightJawBelowEar: 132,
  leftJawBelowEar: 361,
};
const TOLERANCE_MM = 3;

describe('try-on placement on the recorded sample face, within 3 mm of hand-measured points', () => {
  const lm = recorded();
  const pt = (i: number, w = SAMPLE_W, h = SAMPLE_H, set = lm) => ({
    x: set[i]!.x * w,
    y: set[i]!.y * h,
    z: set[i]!.z * w,
  });
  // The scale from the raw landmarks: the 3D cheekbone-to-cheekbone distance over the 140 mm it stands for.
  const pxPerMmOf = (set: Landmark[], w: number, h: number) => {
    const r = pt(MESH.rightCheekbone, w, h, set);
    const l = pt(MESH.leftCheekbone, w, h, set);
    return Math.hypot(l.x - r.x, l.y - r.y, l.z - r.z) / 140;
  };
  const offMm = (got: { x: number; y: number }, want: { x: number; y: number }, pxPerMm: number) =>
    Math.hypot(got.x - want.x, got.y - want.y) / pxPerMm;
  const place = (
    kind: 'earrings' | 'nose_pin' | 'necklace' | 'pendant',
    set = lm,
    w = SAMPLE_W,
    h = SAMPLE_H,
  ) => placePiece(set, w, h, { kind, widthMm: null, heightMm: null });

  it('measures the scale the hand measure used (0.769 px/mm: 3 mm is 2.3 px)', () => {
    expect(pxPerMmOf(lm, SAMPLE_W, SAMPLE_H)).toBeCloseTo(0.7691, 3);
    expect(facePose(lm, SAMPLE_W, SAMPLE_H).pxPerMm).toBeCloseTo(0.7691, 3);
  });

  it('hangs each earring at its hand-measured lobe: (118.8, 135.9) and (223.1, 126.4) px', () => {
    const s = pxPerMmOf(lm, SAMPLE_W, SAMPLE_H);
    const [right, left] = place('earrings');
    expect(right!.part).toBe('right-ear');
    expect(offMm(right!, { x: 118.82, y: 135.86 }, s)).toBeLessThanOrEqual(TOLERANCE_MM);
    expect(offMm(left!, { x: 223.13, y: 126.38 }, s)).toBeLessThanOrEqual(TOLERANCE_MM);
    // Anatomy, from the contour itself: each lobe is below the cheekbone edge, above the jaw point under the
    // ear, and outside the face's edge there (the contour points 234, 93, 132 on the right; 454, 323, 361 left).
    expect(right!.y).toBeGreaterThan(pt(234).y);
    expect(right!.y).toBeLessThan(pt(132).y);
    expect(right!.x).toBeLessThan(Math.min(pt(234).x, pt(93).x, pt(132).x));
    expect(left!.y).toBeGreaterThan(pt(454).y);
    expect(left!.y).toBeLessThan(pt(361).y);
    expect(left!.x).toBeGreaterThan(Math.max(pt(454).x, pt(323).x, pt(361).x));
  });

  it('sits the nose pin on the nostril wing and hangs the necklace and pendant at their hand-measured points', () => {
    const s = pxPerMmOf(lm, SAMPLE_W, SAMPLE_H);
    const [pin] = place('nose_pin');
    const [neck] = place('necklace');
    const [pendant] = place('pendant');
    expect(offMm(pin!, { x: 161.24, y: 152.98 }, s)).toBeLessThanOrEqual(TOLERANCE_MM);
    expect(offMm(neck!, { x: 174.64, y: 268.44 }, s)).toBeLessThanOrEqual(TOLERANCE_MM);
    expect(offMm(pendant!, { x: 188.12, y: 335.36 }, s)).toBeLessThanOrEqual(TOLERANCE_MM);
    // All on the recorded picture (a necklace dropped by face heights would leave the 480 px frame).
    for (const p of [neck!, pendant!]) expect(p.y).toBeLessThan(SAMPLE_H);
  });

  it('keeps every piece within 3 mm when the same face is nearer, moved and rolled in a 640×480 frame', () => {
    // The recorded face turned 15° in the picture, 1.6× larger, moved: every point (z too) in pixels, then
    // normalised to the new frame. The expected points are measured on the moved landmarks the same way as above.
    const W2 = 640;
    const H2 = 480;
    const roll = (15 * Math.PI) / 180;
    const k = 1.6;
    const moved = lm.map((p) => {
      const x = p.x * SAMPLE_W - 170;
      const y = p.y * SAMPLE_H - 200;
      return {
        x: (320 + k * (x * Math.cos(roll) - y * Math.sin(roll))) / W2,
        y: (250 + k * (x * Math.sin(roll) + y * Math.cos(roll))) / H2,
        z: (k * p.z * SAMPLE_W) / W2,
      };
    });
    const at = (i: number) => pt(i, W2, H2, moved);
    const s = pxPerMmOf(moved, W2, H2);
    expect(s).toBeCloseTo(0.7691 * k, 3);
    const cheekR = at(MESH.rightCheekbone);
    const cheekL = at(MESH.leftCheekbone);
    const yaw = Math.asin((cheekL.z - cheekR.z) / (s * 140));
    const lobe = (cheek: number, jaw: number) => {
      const c = at(cheek);
      const j = at(jaw);
      const outward = c.x < at(MESH.noseTip).x ? -1 : 1;
      return { x: c.x + 0.35 * (j.x - c.x) + outward * 4 * s * Math.cos(yaw), y: c.y + 0.35 * (j.y - c.y) };
    };
    const f = at(MESH.forehead);
    const c = at(MESH.chin);
    const below = (faceHeights: number) => ({
      x: c.x + faceHeights * (c.x - f.x),
      y: c.y + faceHeights * (c.y - f.y),
    });

    const [right, left] = place('earrings', moved, W2, H2);
    expect(offMm(right!, lobe(MESH.rightCheekbone, MESH.rightJawBelowEar), s)).toBeLessThanOrEqual(
      TOLERANCE_MM,
    );
    expect(offMm(left!, lobe(MESH.leftCheekbone, MESH.leftJawBelowEar), s)).toBeLessThanOrEqual(TOLERANCE_MM);
    expect(right!.rotation).toBe(0);
    const [pin] = place('nose_pin', moved, W2, H2);
    expect(offMm(pin!, at(MESH.leftNostrilWing), s)).toBeLessThanOrEqual(TOLERANCE_MM);
    const [neck] = place('necklace', moved, W2, H2);
    const [pendant] = place('pendant', moved, W2, H2);
    expect(offMm(neck!, below(0.45), s)).toBeLessThanOrEqual(TOLERANCE_MM);
    expect(offMm(pendant!, below(0.95), s)).toBeLessThanOrEqual(TOLERANCE_MM);
  });
});
