import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Phone, PhoneOff, UserRound } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { formatPrice } from '../../../lib/format';
import { audioState } from '../lib/ringtone';
import { useCall } from './call-provider';

function CallerAvatar({ url, name }: { url: string | null; name: string }) {
  const [broken, setBroken] = useState(false);
  if (url && !broken)
    return (
      <img
        src={url}
        alt=""
        onError={() => setBroken(true)}
        className="h-20 w-20 rounded-full object-cover ring-4 ring-brand-100"
        data-caller={name}
      />
    );
  return (
    <span className="inline-flex h-20 w-20 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-4 ring-brand-100">
      <UserRound aria-hidden="true" className="h-10 w-10" />
    </span>
  );
}

/** The seller's incoming-call alert on any page: focus starts on Accept; both buttons wait while responding. */
export function IncomingCallModal() {
  const { t } = useTranslation();
  const { incoming, responding, accept, decline } = useCall();
  const acceptRef = useRef<HTMLButtonElement>(null);
  if (!incoming) return null;
  const name = incoming.callerName || t('calls.defaultCaller');
  return (
    <DialogPrimitive.Root open modal>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-[60] bg-black/60" />
        <DialogPrimitive.Content
          role="alertdialog"
          aria-modal="true"
          data-call-id={incoming.callId}
          data-audio-state={audioState()}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            acceptRef.current?.focus();
          }}
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          className="fixed top-1/2 left-1/2 z-[60] flex w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 flex-col items-center gap-4 rounded-2xl bg-white p-6 text-center shadow-2xl focus:outline-none"
        >
          <div className="motion-safe:animate-pulse">
            <CallerAvatar url={incoming.callerAvatarUrl} name={name} />
          </div>
          <div className="space-y-1">
            <DialogPrimitive.Title className="text-xl font-semibold break-words text-ink">
              {name}
            </DialogPrimitive.Title>
            <DialogPrimitive.Description className="text-muted">
              {incoming.callBack
                ? t('calls.schedule.callback.callingYouBack', { shop: name })
                : t('calls.incoming.text')}
            </DialogPrimitive.Description>
          </div>
          {incoming.product && (
            <div
              className="flex w-full items-center gap-3 rounded-xl border border-stone-200 bg-stone-50 p-2 text-left"
              data-testid="incoming-product"
            >
              {incoming.product.imageUrl ? (
                <img
                  src={incoming.product.imageUrl}
                  alt=""
                  className="h-14 w-14 shrink-0 rounded-md object-cover"
                />
              ) : (
                <span className="h-14 w-14 shrink-0 rounded-md bg-stone-200" />
              )}
              <div className="min-w-0">
                <p className="text-sm text-muted">{t('calls.selling.callingAbout')}</p>
                <p className="truncate font-semibold text-ink">{incoming.product.name}</p>
                <p className="text-sm font-semibold text-brand-700">
                  {formatPrice(incoming.product.price, t('common.priceNotAvailable'))}
                </p>
              </div>
            </div>
          )}
          <div className="grid w-full grid-cols-2 gap-3">
            <Button variant="destructive" size="lg" disabled={responding} onClick={decline}>
              <PhoneOff aria-hidden="true" className="h-5 w-5" />
              {t('calls.incoming.decline')}
            </Button>
            <Button
              ref={acceptRef}
              size="lg"
              disabled={responding}
              onClick={accept}
              className="bg-green-700 hover:bg-green-800 disabled:bg-green-700/60"
            >
              <Phone aria-hidden="true" className="h-5 w-5" />
              {t('calls.incoming.accept')}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
