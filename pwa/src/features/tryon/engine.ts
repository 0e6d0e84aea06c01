import type { FaceDetector } from './detector';
import { placePiece, type Landmark, type Placement, type TryOnKind } from './geometry';

export interface TryOnPiece {
  kind: TryOnKind;
  widthMm: number | null;
  heightMm: number | null;
  /** The piece's front view, transparent around it. */
  image: CanvasImageSource;
  /** Where the image is held, fractions of its width and height. */
  anchor: { x: number; y: number };
  /** The image's width : height when it is the product's own (drawn unstretched); null for a drawn piece. */
  aspect: number | null;
  /** The product's own try-on image (true) or the drawn piece of its kind. */
  own: boolean;
  /** The colour a pendant's chain is drawn in (its metal's). */
  chain: string;
}

export type TryOnStatus = 'starting' | 'no-face' | 'tracking';

export interface TryOnEngine {
  /** The composited picture: the camera with the piece drawn on. */
  canvas: HTMLCanvasElement;
  /** The canvas as a video track (for a call's sender). */
  captureTrack(): MediaStreamTrack;
  setPiece(piece: TryOnPiece): void;
  stop(): void;
}

/** Draws one frame: the camera picture and the piece at its placements (render order: ears, nose, neck). */
export function drawComposite(
  g: CanvasRenderingContext2D,
  frame: CanvasImageSource,
  width: number,
  height: number,
  piece: TryOnPiece | null,
  placements: readonly Placement[],
): void {
  g.globalAlpha = 1;
  g.drawImage(frame, 0, 0, width, height);
  if (!piece) return;
  for (const p of placements) {
    if (p.opacity <= 0) continue;
    g.save();
    g.globalAlpha = p.opacity;
    g.translate(p.x, p.y);
    g.rotate(p.rotation);
    if (piece.kind === 'pendant') {
      // The chain: from either side of the neck down to the bale.
      g.strokeStyle = piece.chain;
      g.lineWidth = Math.max(1.5, p.width * 0.06);
      g.beginPath();
      g.moveTo(-p.width * 2.6, -p.height * 2.4);
      g.quadraticCurveTo(-p.width * 1.2, -p.height * 0.2, 0, 0);
      g.quadraticCurveTo(p.width * 1.2, -p.height * 0.2, p.width * 2.6, -p.height * 2.4);
      g.stroke();
    }
    g.drawImage(piece.image, -piece.anchor.x * p.width, -piece.anchor.y * p.height, p.width, p.height);
    g.restore();
  }
}

/**
 * Runs the try-on on a camera stream: a video element plays it, every animation frame draws the camera and
 * the piece on a canvas, and the face model works on the latest frame in a loop of its own (the picture does
 * not wait for the model; the piece follows the newest landmarks).
 */
export function startTryOn(opts: {
  camera: MediaStream;
  detector: FaceDetector;
  piece: TryOnPiece;
  onStatus: (s: TryOnStatus) => void;
  onFirstFrame?: () => void;
}): TryOnEngine {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = opts.camera;
  void video.play().catch(() => undefined);
  const canvas = document.createElement('canvas');
  const settings = opts.camera.getVideoTracks()[0]?.getSettings();
  canvas.width = settings?.width ?? 640;
  canvas.height = settings?.height ?? 480;
  const g = canvas.getContext('2d')!;
  let piece = opts.piece;
  let placements: Placement[] = [];
  let running = true;
  let frames = 0;
  let status: TryOnStatus = 'starting';
  const setStatus = (s: TryOnStatus) => {
    if (s === status) return;
    status = s;
    canvas.dataset.status = s;
    opts.onStatus(s);
  };
  canvas.dataset.status = status;
  canvas.dataset.piece = piece.own ? 'own' : 'drawn';

  const draw = () => {
    if (!running) return;
    if (video.readyState >= 2 && video.videoWidth > 0) {
      if (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
      }
      drawComposite(g, video, canvas.width, canvas.height, piece, placements);
      frames++;
      canvas.dataset.frames = String(frames);
      if (frames === 1) opts.onFirstFrame?.();
    }
    requestAnimationFrame(draw);
  };
  requestAnimationFrame(draw);

  const place = (lm: Landmark[] | null) => {
    if (!lm) {
      placements = [];
      setStatus('no-face');
    } else {
      placements = placePiece(lm, canvas.width, canvas.height, {
        kind: piece.kind,
        widthMm: piece.widthMm,
        heightMm: piece.heightMm,
        aspect: piece.aspect,
      });
      setStatus('tracking');
    }
    // For tests and diagnostics: where the piece is drawn now.
    canvas.dataset.placements = JSON.stringify(
      placements.map((p) => ({
        part: p.part,
        x: Math.round(p.x),
        y: Math.round(p.y),
        w: Math.round(p.width),
        h: Math.round(p.height),
        o: p.opacity,
      })),
    );
  };

  void (async () => {
    while (running) {
      if (video.readyState < 2 || video.videoWidth === 0) {
        await new Promise((r) => setTimeout(r, 30));
        continue;
      }
      try {
        const lm = await opts.detector.detect(video, video.videoWidth, video.videoHeight);
        if (running) place(lm);
      } catch {
        if (running) place(null);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();

  return {
    canvas,
    captureTrack: () => canvas.captureStream(30).getVideoTracks()[0]!,
    setPiece(next) {
      piece = next;
      canvas.dataset.piece = next.own ? 'own' : 'drawn';
    },
    stop() {
      running = false;
      video.pause();
      video.srcObject = null;
    },
  };
}
