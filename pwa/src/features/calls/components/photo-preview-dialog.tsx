import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Camera, Send, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';

/**
 * The jeweller's photo before it leaves (issue #48): the still as taken, with Send and Retake (back to the
 * camera, to frame the piece again). Nothing is sent until Send; while it is sent the buttons wait, so two
 * taps send one photo.
 */
export function PhotoPreviewDialog({
  image,
  busy,
  sending,
  onSend,
  onRetake,
  onCancel,
}: {
  /** The still as a data URI; null: no preview open. */
  image: string | null;
  /** The photo is being sent. */
  busy: boolean;
  sending: boolean;
  onSend: () => void;
  onRetake: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <DialogPrimitive.Root
      open={image !== null}
      onOpenChange={(o) => {
        if (!o && !sending) onCancel();
      }}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-[70] bg-black/90" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          data-testid="photo-preview"
          className="fixed inset-0 z-[70] flex flex-col bg-stone-950 text-white focus:outline-none"
        >
          <div className="flex items-center gap-2 px-3 py-2">
            <DialogPrimitive.Title className="min-w-0 flex-1 font-semibold">
              {t('callCounter.previewTitle')}
            </DialogPrimitive.Title>
            <DialogPrimitive.Close
              aria-label={t('common.cancel')}
              disabled={sending}
              className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-stone-800 focus-visible:outline-2 focus-visible:outline-white disabled:opacity-60"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </DialogPrimitive.Close>
          </div>
          <div className="flex min-h-0 flex-1 items-center justify-center px-3">
            {image && (
              <img
                src={image}
                alt={t('callCounter.previewAlt')}
                className="max-h-full max-w-full rounded-lg object-contain"
              />
            )}
          </div>
          <div className="grid grid-cols-2 gap-3 px-3 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
            <button
              type="button"
              onClick={onRetake}
              disabled={busy}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-stone-700 px-4 font-semibold text-white hover:bg-stone-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-60"
            >
              <Camera aria-hidden="true" className="h-5 w-5 shrink-0" />
              {t('callCounter.retake')}
            </button>
            <button
              type="button"
              onClick={onSend}
              disabled={busy}
              aria-busy={sending || undefined}
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-60"
            >
              {sending ? (
                <Spinner className="h-5 w-5 shrink-0" />
              ) : (
                <Send aria-hidden="true" className="h-5 w-5 shrink-0" />
              )}
              {t('callCounter.sendPhoto')}
            </button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
