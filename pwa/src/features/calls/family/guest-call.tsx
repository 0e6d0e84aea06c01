import { Heart, PhoneOff, ThumbsUp } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type {
  FamilyGuestStateResponse,
  FamilyLikeKind,
  FamilyParty,
} from '../../../../../api/contract/call-family';
import type { CallProduct, PhotoCallItem } from '../../../../../api/contract/call-selling';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { LikeLine } from './family-in-call';
import { FamilyTile } from './family-tile';
import { GuestPhoto } from './guest-photo';
import { guestApi } from './family-api';

/** A piece shown in the call, with the guest's heart and "I like this one". */
function ShownPiece({ product, guestToken }: { product: CallProduct; guestToken: string }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState<FamilyLikeKind | null>(null);
  const like = async (kind: FamilyLikeKind) => {
    try {
      await guestApi.like(guestToken, product.id, kind);
      setSent(kind);
    } catch (err) {
      toast.error(translateMessage(errorMessage(err)));
    }
  };
  return (
    <li className="flex gap-3 rounded-lg bg-white p-2 text-ink" data-testid="guest-piece">
      {product.imageUrl && (
        <img src={product.imageUrl} alt="" className="h-14 w-14 shrink-0 rounded-md object-cover" />
      )}
      {/* The name above the two buttons: a long name, or the Tamil labels, never squeeze one another. */}
      <div className="min-w-0 flex-1">
        <span className="block text-sm font-semibold break-words" data-testid="guest-piece-name">
          {product.name}
        </span>
        {sent && (
          <span className="block text-xs text-muted" role="status">
            {t('family.like.sent')}
          </span>
        )}
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={() => void like('heart')}
            aria-label={t('family.like.heartPiece', { piece: product.name })}
            aria-pressed={sent === 'heart'}
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full border border-stone-300 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <Heart aria-hidden="true" className="h-5 w-5 text-red-600" />
          </button>
          <button
            type="button"
            onClick={() => void like('like')}
            aria-pressed={sent === 'like'}
            className="inline-flex min-h-10 items-center gap-1 rounded-full bg-brand-700 px-3 py-1 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            aria-label={t('family.like.likePiece', { piece: product.name })}
          >
            <ThumbsUp aria-hidden="true" className="h-4 w-4 shrink-0" />
            {t('family.like.button')}
          </button>
        </div>
      </div>
    </li>
  );
}

/**
 * A guest in the call (issue #52): everyone's video (their own small), the pieces shown with a heart and
 * "I like this one", the chat as it is said, the likes, and Leave.
 */
export function GuestCall({
  state,
  streams,
  local,
  guestToken,
  onLeave,
}: {
  state: FamilyGuestStateResponse;
  streams: ReadonlyMap<FamilyParty, MediaStream>;
  local: MediaStream | null;
  guestToken: string;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  const others = state.members.filter((m) => m.party !== state.me);
  const me = state.members.find((m) => m.party === state.me);
  const nameOf = (userId: number) => state.members.find((m) => m.party === `u${userId}`)?.name ?? '';
  // What was shown, newest first: each piece once (where it was first shown), and each photo.
  const pieces = new Map<number, { at: number; product: CallProduct }>();
  if (state.piece) pieces.set(state.piece.id, { at: 0, product: state.piece });
  for (const item of state.items)
    if (item.kind === 'product' && !pieces.has(item.product.id))
      pieces.set(item.product.id, { at: item.id, product: item.product });
  const photos = state.items.filter((i): i is PhotoCallItem => i.kind === 'photo');
  const shown = [
    ...[...pieces.values()].map(({ at, product }) => ({ at, product, photo: null })),
    ...photos.map((photo, i) => ({ at: photo.id, product: null, photo, number: i + 1 })),
  ].sort((a, b) => b.at - a.at);
  const messages = state.items.filter((i) => i.kind === 'message');
  return (
    <div className="flex min-h-dvh flex-col bg-stone-950 text-white" data-testid="guest-call">
      <header className="flex items-center gap-2 px-3 py-2">
        <div className="min-w-0 flex-1">
          <h1 className="truncate font-semibold">{state.shopName}</h1>
          {state.productName && (
            <p className="truncate text-sm text-stone-300">
              {t('family.join.about', { piece: state.productName })}
            </p>
          )}
        </div>
        <button
          type="button"
          onClick={onLeave}
          className="inline-flex h-10 items-center gap-1.5 rounded-full bg-red-700 px-4 text-sm font-semibold hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          <PhoneOff aria-hidden="true" className="h-4 w-4" />
          {t('family.leave')}
        </button>
      </header>
      <section aria-label={t('family.everyone')} className="grid grid-cols-2 gap-2 px-2">
        {others.map((m) => (
          <FamilyTile
            key={m.party}
            party={m.party}
            stream={streams.get(m.party) ?? null}
            name={m.role === 'jeweller' ? m.name : m.name}
            label={t('family.video', { name: m.name })}
            className="aspect-[3/4] w-full"
          />
        ))}
        <FamilyTile
          party={state.me}
          stream={local}
          name={me?.name ?? ''}
          label={t('family.yourVideo')}
          muted
          mirrored
          className="aspect-[3/4] w-full"
        />
      </section>
      <section aria-label={t('family.shown')} className="px-2 py-3">
        <h2 className="px-1 pb-2 text-sm font-semibold">{t('family.shown')}</h2>
        {shown.length === 0 ? (
          <p className="px-1 text-sm text-stone-300">{t('family.nothingShown')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {shown.map((s) =>
              s.photo ? (
                <GuestPhoto
                  key={`ph${s.photo.id}`}
                  photo={s.photo}
                  number={s.number}
                  shopName={state.shopName}
                  guestToken={guestToken}
                />
              ) : (
                <ShownPiece key={`p${s.product.id}`} product={s.product} guestToken={guestToken} />
              ),
            )}
          </ul>
        )}
      </section>
      {(state.likes.length > 0 || messages.length > 0) && (
        <section aria-label={t('family.said')} className="px-3 pb-4 text-sm">
          <h2 className="pb-1 font-semibold">{t('family.said')}</h2>
          <ul className="flex flex-col gap-1" data-testid="guest-said">
            {messages.map((m) =>
              m.kind === 'message' ? (
                <li key={`m${m.id}`} className="break-words">
                  <span className="font-semibold">{nameOf(m.fromUserId)}: </span>
                  {m.text}
                </li>
              ) : null,
            )}
            {state.likes.map((l) => (
              <li key={`l${l.id}`}>
                <LikeLine like={l} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
