import { CALL_PHOTO_MAX_BYTES } from '../../../../../api/contract/call-selling';

interface ImageCaptureLike {
  takePhoto(): Promise<Blob>;
}
type ImageCaptureCtor = new (track: MediaStreamTrack) => ImageCaptureLike;

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the photo'));
    reader.readAsDataURL(blob);
  });
}

/** A frame of the track at the track's own resolution (not the size the video is shown or sent at). */
async function frameOfTrack(track: MediaStreamTrack): Promise<Blob> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = new MediaStream([track]);
  await video.play();
  await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  video.pause();
  video.srcObject = null;
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('No frame'))), 'image/jpeg', 0.92),
  );
}

/** Draws the photo smaller until its JPEG fits the server's limit (a rare 50-megapixel camera). */
async function fitToLimit(blob: Blob): Promise<Blob> {
  if (blob.size <= CALL_PHOTO_MAX_BYTES) return blob;
  const bitmap = await createImageBitmap(blob);
  let scale = Math.sqrt(CALL_PHOTO_MAX_BYTES / blob.size) * 0.9;
  for (;;) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const out = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/jpeg', 0.9));
    if (out && out.size <= CALL_PHOTO_MAX_BYTES) return out;
    scale *= 0.8;
  }
}

/**
 * A still from the camera at its full resolution, as a data URI: the camera's photo capability where the
 * browser has it (ImageCapture.takePhoto: the sensor's still, sharper than any video frame), otherwise a frame
 * of the camera track itself, at the track's resolution rather than the compressed frame the other side sees.
 */
export async function takePhoto(track: MediaStreamTrack): Promise<string> {
  const Capture = (globalThis as { ImageCapture?: ImageCaptureCtor }).ImageCapture;
  let blob: Blob | null = null;
  if (Capture) {
    try {
      blob = await new Capture(track).takePhoto();
    } catch {
      blob = null;
    }
  }
  blob ??= await frameOfTrack(track);
  return blobToDataUrl(await fitToLimit(blob));
}
