import type { FaceDetector } from './detector';
import { placePiece, type Landmark, type Placement, type TryOnKind } from './geometry';
import { drawsPiece, type TryOnMachine } from './status';

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

export interface TryOnEngine {
  /** The composited picture: the camera with the piece drawn on. */
  canvas: HTMLCanvasElement;
  /** The canvas as a video track (for a call's sender). */
  captureTrack(): MediaStreamTrack;
  setPiece(piece: TryOnPiece): void;
  /** The face model, once loaded: until then the camera's picture is shown alone. */
  setDetector(detector: FaceDetector): void;
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
 * Runs the try-on on a camera stream: a video element plays it and every animation frame draws the camera on
 * a canvas at once (before the model is loaded); once the model is set, it works on the latest frame in a
 * loop of its own (the picture does not wait for it) and the piece follows the newest landmarks. The machine
 * (status.ts) is told the first frame, each face found or missed, and time passing; the piece is drawn only
 * while it says `drawing`, so a face lost for FACE_LOST_MS clears the drawing.
 */
export function startTryOn(opts: {
  camera: MediaStream;
  detector?: FaceDetector | null;
  piece: TryOnPiece;
  machine: TryOnMachine;
  onFirstFrame?: () => void;
}): TryOnEngine {
  const { machine } = opts;
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
  let detector = opts.detector ?? null;
  let placements: Placement[] = [];
  let running = true;
  let frames = 0;
  const showPlacements = () => {
    // For tests and diagnostics: where the piece is drawn now.
    const drawn = drawsPiece(machine.state) ? placements : [];
    canvas.dataset.placements = JSON.stringify(
      drawn.map((p) => ({
        part: p.part,
        x: Math.round(p.x),
        y: Math.round(p.y),
        w: Math.round(p.width),
        h: Math.round(p.height),
        o: p.opacity,
      })),
    );
  };
  const unsubscribe = machine.subscribe((s) => {
    canvas.dataset.status = s.phase;
    if (!drawsPiece(s)) placements = [];
    showPlacements();
  });
  canvas.dataset.status = machine.state.phase;
  canvas.dataset.piece = piece.own ? 'own' : 'drawn';

  const draw = () => {
    if (!running) return;
    machine.dispatch({ type: 'no-face', at: performance.now() });
    if (video.readyState >= 2 && video.videoWidth > 0) {
      if (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
      }
      drawComposite(
        g,
        video,
        canvas.width,
        canvas.height,
        piece,
        drawsPiece(machine.state) ? placements : [],
      );
      frames++;
      canvas.dataset.frames = String(frames);
      if (frames === 1) {
        machine.dispatch({ type: 'camera-live' });
        opts.onFirstFrame?.();
      }
    }
    requestAnimationFrame(draw);
  };
  requestAnimationFrame(draw);

  const place = (lm: Landmark[] | null) => {
    const at = performance.now();
    if (!lm) {
      // The last drawing stays up to FACE_LOST_MS (one missed frame does not blink it), then the machine says
      // the face is lost and it is cleared.
      machine.dispatch({ type: 'no-face', at });
    } else {
      placements = placePiece(lm, canvas.width, canvas.height, {
        kind: piece.kind,
        widthMm: piece.widthMm,
        heightMm: piece.heightMm,
        aspect: piece.aspect,
      });
      machine.dispatch({ type: 'face', at });
    }
    showPlacements();
  };

  void (async () => {
    while (running) {
      if (!detector || video.readyState < 2 || video.videoWidth === 0) {
        await new Promise((r) => setTimeout(r, 30));
        continue;
      }
      try {
        const lm = await detector.detect(video, video.videoWidth, video.videoHeight);
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
    setDetector(next) {
      detector = next;
    },
    stop() {
      running = false;
      unsubscribe();
      video.pause();
      video.srcObject = null;
    },
  };
}

/** This module's file (a build's chunk): one of the try-on's code files kept for offline use (model-load.ts). */
export const ENGINE_CODE_URL = import.meta.url;
