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
