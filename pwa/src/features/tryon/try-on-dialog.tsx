import { Camera, Download, Share2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../api/contract/catalog';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { acquireFaceDetector } from './detector';
import { startTryOn, type TryOnEngine, type TryOnStatus } from './engine';
import { tryOnKind } from './geometry';
import { openFrontCamera, productPiece } from './piece-image';

type Phase = TryOnStatus | 'loading' | 'no-camera' | 'camera-denied' | 'model-failed';

/**
 * "Try it on": the front camera with the piece drawn on the face, live; a photo can be taken and shared. The
 * camera's frames stay on this device (the model runs here, docs/security.md).
 */
export default function TryOnDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const { t } = useTranslation();
  const kind = tryOnKind(product.category)!;
  const [phase, setPhase] = useState<Phase>('loading');
  const [photo, setPhoto] = useState<{ url: string; blob: Blob } | null>(null);
  const holder = useRef<HTMLDivElement>(null);
  const engine = useRef<TryOnEngine | null>(null);

  useEffect(() => {
    let cancelled = false;
    let camera: MediaStream | null = null;
    let close: (() => void) | null = null;
    const started = performance.now();
    void (async () => {
      try {
        camera = await openFrontCamera();
      } catch (err) {
        if (!cancelled)
          setPhase((err as DOMException).name === 'NotAllowedError' ? 'camera-denied' : 'no-camera');
        return;
      }
      if (cancelled) return camera.getTracks().forEach((tr) => tr.stop());
      try {
        const [detector, piece] = await Promise.all([acquireFaceDetector(), productPiece(kind, product)]);
        close = detector.close;
        if (cancelled) return detector.close();
        const e = startTryOn({
          camera,
          detector,
          piece,
          onStatus: (s) => !cancelled && setPhase(s),
          onFirstFrame: () => {
            e.canvas.dataset.firstFrameMs = String(Math.round(performance.now() - started));
          },
        });
        engine.current = e;
        e.canvas.className = 'h-full w-full -scale-x-100 object-contain';
        e.canvas.setAttribute('role', 'img');
        e.canvas.setAttribute('aria-label', t('catalog.tryOn.canvasLabel', { name: product.name }));
        e.canvas.dataset.testid = 'try-on-canvas';
        holder.current?.appendChild(e.canvas);
      } catch {
        if (!cancelled) setPhase('model-failed');
      }
    })();
    return () => {
      cancelled = true;
      engine.current?.stop();
      engine.current?.canvas.remove();
      engine.current = null;
      close?.();
      camera?.getTracks().forEach((tr) => tr.stop());
    };
    // One session per opening: the product does not change while the dialog is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.url) : undefined), [photo]);

  const takePhoto = () => {
    engine.current?.canvas.toBlob(
      (blob) => blob && setPhoto({ blob, url: URL.createObjectURL(blob) }),
      'image/jpeg',
      0.92,
    );
  };
  const fileName = `${product.name.replace(/[^\p{L}\p{N}]+/gu, '-')}-try-on.jpg`;
  const share = async () => {
    if (!photo) return;
    const file = new File([photo.blob], fileName, { type: 'image/jpeg' });
    if (navigator.canShare?.({ files: [file] })) {
      await navigator.share({ files: [file], title: product.name }).catch(() => undefined);
    }
  };
  const canShareFiles =
    typeof navigator !== 'undefined' &&
    !!navigator.canShare?.({ files: [new File([], 'x.jpg', { type: 'image/jpeg' })] });

  const message =
    phase === 'loading' || phase === 'starting'
      ? t('catalog.tryOn.loading')
      : phase === 'no-face'
        ? t('catalog.tryOn.noFace')
        : phase === 'no-camera'
          ? t('catalog.tryOn.noCamera')
          : phase === 'camera-denied'
            ? t('catalog.tryOn.cameraDenied')
            : phase === 'model-failed'
              ? t('catalog.tryOn.modelFailed')
              : null;

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent
        closeLabel={t('common.close')}
        className="max-w-xl gap-3 p-3 sm:p-4"
        data-try-on-phase={phase}
      >
        <DialogTitle className="pr-8 text-lg">{t('catalog.tryOn.title', { name: product.name })}</DialogTitle>
        <DialogDescription className="text-sm text-muted">{t('catalog.tryOn.privacy')}</DialogDescription>
        <div
          ref={holder}
          className="relative aspect-[4/3] w-full overflow-hidden rounded-lg bg-stone-900"
          hidden={!!photo}
        />
        {photo && (
          <img
            src={photo.url}
            alt={t('catalog.tryOn.photoAlt', { name: product.name })}
            className="w-full rounded-lg"
          />
        )}
        <p role="status" aria-live="polite" className="min-h-5 text-sm font-medium text-ink">
          {message}
        </p>
        <div className="flex flex-wrap gap-2">
          {photo ? (
            <>
              {canShareFiles && (
                <Button onClick={() => void share()}>
                  <Share2 aria-hidden="true" className="h-4 w-4" />
                  {t('catalog.tryOn.share')}
                </Button>
              )}
              <a
                href={photo.url}
                download={fileName}
                className="inline-flex min-h-11 items-center gap-2 rounded-md border border-stone-300 px-4 font-medium text-ink hover:bg-stone-50"
              >
                <Download aria-hidden="true" className="h-4 w-4" />
                {t('catalog.tryOn.save')}
              </a>
              <Button variant="outline" onClick={() => setPhoto(null)}>
                <X aria-hidden="true" className="h-4 w-4" />
                {t('catalog.tryOn.retake')}
              </Button>
            </>
          ) : (
            <Button onClick={takePhoto} disabled={phase !== 'tracking' && phase !== 'no-face'}>
              <Camera aria-hidden="true" className="h-4 w-4" />
              {t('catalog.tryOn.takePhoto')}
            </Button>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
