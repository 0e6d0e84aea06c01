import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Minus, Plus, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  CallItem,
  CallProduct,
  PhotoCallItem,
  ProductHold,
  ProductCallItem,
} from '../../../../../api/contract/call-selling';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { CallTryOnButton } from '../../tryon/public';
import { CallProductActions, CallProductSummary, productFacts } from './call-product-card';

type Viewing = { kind: 'product'; product: CallProduct } | { kind: 'photo'; item: PhotoCallItem } | null;

/** A full-screen look at a piece or a photo, without leaving the call (a dialog over the call). */
export function CallViewer({
  viewing,
  onClose,
  callId,
  canBuy,
  holds,
  onHeld,
}: {
  viewing: Viewing;
  onClose: () => void;
  callId: number;
  canBuy: boolean;
  holds: ReadonlyMap<number, ProductHold>;
  onHeld: (hold: ProductHold) => void;
}) {
  const { t, i18n } = useTranslation();
  const [zoom, setZoom] = useState(1);
  const open = viewing !== null;
  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setZoom(1);
          onClose();
        }
      }}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-[70] bg-black/90" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-[70] flex flex-col bg-stone-950 text-white focus:outline-none"
        >
          <div className="flex items-center gap-2 px-3 py-2">
            <DialogPrimitive.Title className="min-w-0 flex-1 truncate font-semibold">
              {viewing?.kind === 'product' ? viewing.product.name : t('calls.selling.photoTitle')}
            </DialogPrimitive.Title>
            {viewing?.kind === 'photo' && (
              <>
                <button
                  type="button"
                  aria-label={t('calls.selling.zoomOut')}
                  disabled={zoom <= 1}
                  onClick={() => setZoom((z) => Math.max(1, z / 1.5))}
                  className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-stone-800 disabled:opacity-50"
                >
                  <Minus aria-hidden="true" className="h-5 w-5" />
                </button>
                <button
                  type="button"
                  aria-label={t('calls.selling.zoomIn')}
                  disabled={zoom >= 5}
                  onClick={() => setZoom((z) => Math.min(5, z * 1.5))}
                  className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-stone-800 disabled:opacity-50"
                >
                  <Plus aria-hidden="true" className="h-5 w-5" />
                </button>
              </>
            )}
            <DialogPrimitive.Close
              aria-label={t('common.close')}
              className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-stone-800 focus-visible:outline-2 focus-visible:outline-white"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </DialogPrimitive.Close>
          </div>
          {viewing?.kind === 'photo' && (
            // Pinch-zoom works natively here; the buttons zoom for a mouse or a keyboard.
            <div
              className="min-h-0 flex-1 overflow-auto [touch-action:pinch-zoom_pan-x_pan-y]"
              data-testid="photo-viewer"
            >
              <img
                src={viewing.item.photoUrl}
                alt={t('calls.selling.photoAlt')}
                style={{ width: `${zoom * 100}%`, maxWidth: 'none' }}
                className="mx-auto h-auto"
              />
            </div>
          )}
          {viewing?.kind === 'product' && (
            <div className="min-h-0 flex-1 overflow-y-auto px-3 pb-4">
              {(viewing.product.fullImageUrl ?? viewing.product.imageUrl) && (
                <img
                  src={viewing.product.fullImageUrl ?? viewing.product.imageUrl ?? ''}
                  alt={viewing.product.name}
                  className="mx-auto max-h-[55dvh] w-full rounded-lg bg-stone-900 object-contain"
                />
              )}
              <p className="mt-3 text-xl font-semibold text-gold-100">
                {formatPrice(viewing.product.price, t('common.priceNotAvailable'))}
              </p>
              <p className="text-stone-200">{productFacts(viewing.product, i18n.language)}</p>
              {viewing.product.sku && (
                <p className="text-sm text-stone-300">
                  {t('calls.selling.sku', { sku: viewing.product.sku })}
                </p>
              )}
              {canBuy && (
                <div className="mt-4">
                  <CallProductActions
                    callId={callId}
                    product={viewing.product}
                    hold={holds.get(viewing.product.id) ?? null}
                    onHeld={onHeld}
                  />
                </div>
              )}
            </div>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * The pieces and photos of the call as cards over the video, newest first, scrolling sideways within the
 * screen. The customer buys or holds from a card; either side opens one full-screen.
 */
export function CallItemsStrip({
  callId,
  items,
  isSeller,
  userId,
  about,
  holds,
  onHeld,
}: {
  callId: number;
  items: CallItem[];
  isSeller: boolean;
  userId: number;
  /** The piece the call was placed about: the customer can hold it or add it to the cart without it being shown. */
  about: CallProduct | null;
  /** The customer's holds by product (the call modal keeps them for the strip, the viewer and the chat). */
  holds: ReadonlyMap<number, ProductHold>;
  onHeld: (hold: ProductHold) => void;
}) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<Viewing>(null);
  const shown = items
    .filter((i): i is ProductCallItem | PhotoCallItem => i.kind === 'product' || i.kind === 'photo')
    .reverse();
  // The strip scrolls to a new piece or photo (the first of those shown, after the piece asked about): never
  // added off-screen while an older card is in view (issue #49).
  const listRef = useRef<HTMLUListElement>(null);
  const newest = shown[0]?.id ?? 0;
  useEffect(() => {
    const list = listRef.current;
    const card = list?.querySelector<HTMLElement>(`[data-item-id="${newest}"]`);
    if (list && card) list.scrollTo({ left: Math.max(0, card.offsetLeft - 8) });
  }, [newest]);
  // The piece asked about comes last (the first the customer had), unless the jeweller showed it already.
  const aboutCard =
    !isSeller && about && !shown.some((i) => i.kind === 'product' && i.product.id === about.id)
      ? about
      : null;
  if (!shown.length && !aboutCard) return null;
  return (
    <>
      <ul
        ref={listRef}
        aria-label={t('calls.selling.shownInCall')}
        data-testid="call-items"
        className="absolute inset-x-0 bottom-0 flex snap-x gap-2 overflow-x-auto px-2 pb-2"
      >
        {aboutCard && (
          <li
            key="about"
            className="w-[17rem] max-w-[calc(100vw-2rem)] shrink-0 snap-start rounded-xl bg-black/75 p-2 backdrop-blur"
            data-testid="about-product"
          >
            <div className="space-y-2">
              <p className="text-xs font-medium text-stone-200">{t('calls.selling.youCalledAbout')}</p>
              <CallProductSummary
                product={aboutCard}
                dark
                onOpen={() => setViewing({ kind: 'product', product: aboutCard })}
              />
              <CallProductActions
                callId={callId}
                product={aboutCard}
                hold={holds.get(aboutCard.id) ?? null}
                onHeld={onHeld}
                compact
              />
            </div>
          </li>
        )}
        {shown.map((item) => (
          <li
            key={item.id}
            data-item-id={item.id}
            className={cn(
              'shrink-0 snap-start rounded-xl bg-black/75 p-2 backdrop-blur',
              item.kind === 'product' ? 'w-[17rem] max-w-[calc(100vw-2rem)]' : 'w-auto',
            )}
            data-testid={item.kind === 'product' ? 'shared-product' : 'shared-photo'}
          >
            {item.kind === 'product' ? (
              <div className="space-y-2">
                <CallProductSummary
                  product={item.product}
                  dark
                  onOpen={() => setViewing({ kind: 'product', product: item.product })}
                />
                {!isSeller && (
                  <CallProductActions
                    callId={callId}
                    product={item.product}
                    hold={holds.get(item.product.id) ?? null}
                    onHeld={onHeld}
                    compact
                  />
                )}
                {!isSeller && <CallTryOnButton product={item.product} />}
              </div>
            ) : (
              <button
                type="button"
                onClick={() => setViewing({ kind: 'photo', item })}
                aria-label={t(
                  item.fromUserId === userId ? 'calls.selling.openYourPhoto' : 'calls.selling.openPhoto',
                )}
                className="block rounded-md focus-visible:outline-2 focus-visible:outline-white"
              >
                <img src={item.photoUrl} alt="" className="h-24 w-24 rounded-md object-cover" />
              </button>
            )}
          </li>
        ))}
      </ul>
      <CallViewer
        viewing={viewing}
        onClose={() => setViewing(null)}
        callId={callId}
        canBuy={!isSeller}
        holds={holds}
        onHeld={onHeld}
      />
    </>
  );
}
