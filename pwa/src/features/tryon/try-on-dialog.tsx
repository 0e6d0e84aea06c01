import { Camera, Download, Share2, X } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../api/contract/catalog';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { ENGINE_CODE_URL, startTryOn, type TryOnEngine } from './engine';
import { tryOnKind } from './geometry';
import { keepTryOnCode, loadFaceModel, MODEL_LOAD_CODE_URL } from './model-load';
import { openFrontCamera, PIECE_IMAGE_CODE_URL, productPiece } from './piece-image';
import { canTakePhoto, createTryOnMachine, statusMessage } from './status';

/**
 * "Try it on": the front camera with the piece drawn on the face, live; a photo can be taken and shared. The
 * camera's frames stay on this device (the model runs here, docs/security.md).
 */
export default function TryOnDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const { t } = useTranslation();
  const kind = tryOnKind(product.category)!;
  const [machine] = useState(createTryOnMachine);
  const state = useSyncExternalStore(machine.subscribe, () => machine.state);
  const phase = state.phase;
  const [photo, setPhoto] = useState<{ url: string; blob: Blob } | null>(null);
  const holder = useRef<HTMLDivElement>(null);
  const engine = useRef<TryOnEngine | null>(null);

  useEffect(() => {
    let cancelled = false;
    let camera: MediaStream | null = null;
    let close: (() => void) | null = null;
    const started = performance.now();
    // For the figures (tests/bench/tryon.ts): the tap's dialog, the camera's first picture, the model ready, the
    // first piece drawn, as marks.
    performance.mark('try-on:open');
    const offDrawn = machine.subscribe((s) => {
      if (s.phase !== 'drawing') return;
      performance.mark('try-on:first-piece');
      offDrawn();
    });
    // The model (sizes, the Save-Data ask, the download with its progress) and the camera at the same time:
    // the camera's picture shows as soon as it is live, the piece once the model is ready and finds the face.
    const model = loadFaceModel(machine);
    model.then(
      (d) => {
        performance.mark('try-on:model-ready');
        if (cancelled) return d.close();
        close = d.close;
        engine.current?.setDetector(d);
        // The try-on ran: its code is kept for the next, offline too (its model's files already are).
        void keepTryOnCode([
          import.meta.url,
          ENGINE_CODE_URL,
          PIECE_IMAGE_CODE_URL,
          MODEL_LOAD_CODE_URL,
        ]).catch(() => undefined);
      },
      () => !cancelled && machine.dispatch({ type: 'failed', phase: 'model-failed' }),
    );
    // The piece's picture while the camera starts (each waits on its own).
    const piece = productPiece(kind, product);
    piece.catch(() => undefined);
    void (async () => {
      try {
        camera = await openFrontCamera();
      } catch (err) {
        if (!cancelled)
          machine.dispatch({
            type: 'failed',
            phase: (err as DOMException).name === 'NotAllowedError' ? 'camera-denied' : 'no-camera',
          });
        return;
      }
      if (cancelled) return camera.getTracks().forEach((tr) => tr.stop());
      try {
        const drawn = await piece;
        if (cancelled) return;
        const e = startTryOn({
          camera,
          piece: drawn,
          machine,
          onFirstFrame: () => {
            performance.mark('try-on:camera');
            e.canvas.dataset.firstFrameMs = String(Math.round(performance.now() - started));
          },
        });
        engine.current = e;
        void model.then((d) => !cancelled && e.setDetector(d)).catch(() => undefined);
        e.canvas.className = 'h-full w-full -scale-x-100 object-contain';
        e.canvas.setAttribute('role', 'img');
        e.canvas.setAttribute('aria-label', t('catalog.tryOn.canvasLabel', { name: product.name }));
        e.canvas.dataset.testid = 'try-on-canvas';
        holder.current?.appendChild(e.canvas);
      } catch {
        if (!cancelled) machine.dispatch({ type: 'failed', phase: 'model-failed' });
      }
    })();
    return () => {
      cancelled = true;
      offDrawn();
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

  const said = statusMessage(state);
  const message = said ? t(said.key, said.values) : null;

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
        <div className="flex min-h-11 flex-wrap gap-2">
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
          ) : phase === 'ask' ? (
            <Button onClick={() => machine.dispatch({ type: 'continue' })}>
              {t('catalog.tryOn.continue')}
            </Button>
          ) : canTakePhoto(state) ? (
            // A photo only while the piece is drawn on a face (issue #51).
            <Button onClick={takePhoto}>
              <Camera aria-hidden="true" className="h-4 w-4" />
              {t('catalog.tryOn.takePhoto')}
            </Button>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
