import type { Landmark } from './geometry';

/*
 * The sample face of the try-on preview, drawn from its own face-mesh landmarks: no photograph of a person ships
 * in the app. The outlines follow MediaPipe's face-mesh topology (the face oval, eyes, brows and lips are its
 * published index loops), so the ears, the nostril and the chin sit exactly where the live geometry puts a piece.
 */
const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149,
  150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];
const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const LEFT_BROW = [276, 283, 282, 295, 285, 300, 293, 334, 296, 336];
const RIGHT_BROW = [46, 53, 52, 65, 55, 70, 63, 105, 66, 107];
const LIPS = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185];
const NOSE_BRIDGE = [168, 6, 197, 195, 5, 4];

const BACKGROUND = '#e7e2da';
const HAIR = '#2b1d16';
const SKIN = '#b97d57';
const SKIN_SHADE = '#9c6443';
const CLOTH = '#6d2f4f';
const FEATURE = '#3b2418';
const LIP = '#8e3b3b';

/** A canvas of `width`×`height` with a face, neck and shoulders drawn where the landmarks say. */
export function drawSampleFace(
  landmarks: readonly Landmark[],
  width: number,
  height: number,
): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d')!;
  const at = (i: number): [number, number] => [landmarks[i]!.x * width, landmarks[i]!.y * height];
  const loop = (indices: readonly number[], fill: string, close = true) => {
    g.beginPath();
    indices.forEach((i, n) => {
      const [x, y] = at(i);
      if (n === 0) g.moveTo(x, y);
      else g.lineTo(x, y);
    });
    if (close) g.closePath();
    g.fillStyle = fill;
    g.fill();
  };
  const [leftX, leftY] = at(234);
  const [rightX, rightY] = at(454);
  const [, topY] = at(10);
  const [chinX, chinY] = at(152);
  const faceW = Math.hypot(rightX - leftX, rightY - leftY);
  const faceH = chinY - topY;
  const midX = (leftX + rightX) / 2;

  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, width, height);
  // Hair behind the head, falling to the shoulders.
  g.fillStyle = HAIR;
  g.beginPath();
  g.ellipse(midX, topY + faceH * 0.38, faceW * 0.66, faceH * 0.62, 0, 0, Math.PI * 2);
  g.fill();
  // The neck, then the shoulders and a neckline over its foot.
  const shoulderY = chinY + faceH * 0.5;
  g.fillStyle = SKIN_SHADE;
  g.fillRect(chinX - faceW * 0.26, chinY - faceH * 0.2, faceW * 0.52, shoulderY - chinY + faceH * 0.3);
  g.fillStyle = CLOTH;
  g.beginPath();
  g.moveTo(midX - faceW * 1.6, height);
  g.quadraticCurveTo(midX - faceW * 1.4, shoulderY, midX - faceW * 0.55, shoulderY - faceH * 0.05);
  g.lineTo(midX + faceW * 0.55, shoulderY - faceH * 0.05);
  g.quadraticCurveTo(midX + faceW * 1.4, shoulderY, midX + faceW * 1.6, height);
  g.closePath();
  g.fill();
  g.fillStyle = SKIN;
  g.beginPath();
  g.moveTo(midX - faceW * 0.5, shoulderY - faceH * 0.05);
  g.quadraticCurveTo(midX, shoulderY + faceH * 0.3, midX + faceW * 0.5, shoulderY - faceH * 0.05);
  g.closePath();
  g.fill();
  // Ears, where the earrings hang from.
  for (const [x, y, side] of [
    [leftX, leftY, -1],
    [rightX, rightY, 1],
  ] as const) {
    g.fillStyle = SKIN_SHADE;
    g.beginPath();
    g.ellipse(x + side * faceW * 0.03, y + faceH * 0.06, faceW * 0.07, faceH * 0.12, 0, 0, Math.PI * 2);
    g.fill();
  }
  loop(FACE_OVAL, SKIN);
  loop(LEFT_BROW, FEATURE);
  loop(RIGHT_BROW, FEATURE);
  loop(LEFT_EYE, '#fbf7f2');
  loop(RIGHT_EYE, '#fbf7f2');
  for (const [a, b] of [
    [362, 263],
    [33, 133],
  ] as const) {
    const [ax, ay] = at(a);
    const [bx, by] = at(b);
    g.fillStyle = FEATURE;
    g.beginPath();
    g.arc((ax + bx) / 2, (ay + by) / 2, Math.abs(bx - ax) * 0.22, 0, Math.PI * 2);
    g.fill();
  }
  g.strokeStyle = SKIN_SHADE;
  g.lineWidth = Math.max(1, faceW * 0.015);
  g.beginPath();
  NOSE_BRIDGE.forEach((i, n) => {
    const [x, y] = at(i);
    if (n === 0) g.moveTo(x, y);
    else g.lineTo(x, y);
  });
  g.stroke();
  for (const i of [98, 327]) {
    const [x, y] = at(i);
    g.fillStyle = SKIN_SHADE;
    g.beginPath();
    g.arc(x, y, faceW * 0.02, 0, Math.PI * 2);
    g.fill();
  }
  loop(LIPS, LIP);
  return canvas;
}
