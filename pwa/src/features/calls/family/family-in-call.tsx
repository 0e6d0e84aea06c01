import { Heart, ThumbsUp, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { FamilyLike } from '../../../../../api/contract/call-family';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { FamilyTile } from './family-tile';
import { InviteFamily } from './invite-family';
import { useFamilyCall } from './use-family-call';
import type { SharedVideo } from './use-shared-video';

export { useSharedVideo } from './use-shared-video';

/** How long a like stays on the call's screen. */
const LIKE_SHOWN_MS = 6_000;

/** A like as one line: 'Amma likes Jhumka'. */
export function LikeLine({ like }: { like: FamilyLike }) {
  const { t } = useTranslation();
  const Icon = like.kind === 'heart' ? Heart : ThumbsUp;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Icon aria-hidden="true" className="h-4 w-4 shrink-0 fill-current text-red-400" />
      {t(like.kind === 'heart' ? 'family.like.hearted' : 'family.like.liked', {
        name: like.guestName,
        piece: like.productName,
      })}
    </span>
  );
}

/**
 * The family in the customer's and the jeweller's call screen (issue #52): the guests' videos, the
 * customer's "Invite family", the jeweller's admit / decline / remove, and each like as it comes.
 */
export function FamilyInCall({
  callId,
  isSeller,
  video,
  live,
}: {
  callId: number;
  isSeller: boolean;
  /** This side's camera, and the try-on's picture while one runs (sent to every guest too). */
  video: SharedVideo;
  live: boolean;
}) {
  const { t } = useTranslation();
  const family = useFamilyCall(callId, video.camera, live, video);
  const admitted = family.guests.filter((g) => g.state === 'admitted');
  const asking = family.guests.filter((g) => g.state === 'asked');
  const latest = family.likes.at(-1) ?? null;
  // The latest like shows until its time is up (the timer hides that one; a newer one shows again).
  const [expiredLike, setExpiredLike] = useState<number | null>(null);
  const latestId = latest?.id ?? null;
  useEffect(() => {
    if (latestId === null) return;
    const timer = setTimeout(() => setExpiredLike(latestId), LIKE_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [latestId]);
  const showLike = latest !== null && expiredLike !== latest.id;

  const decide = (guestId: number, action: 'admit' | 'decline' | 'remove') =>
    family.decide(guestId, action).catch((err: unknown) => toast.error(translateMessage(errorMessage(err))));

  return (
    <div className="pointer-events-none absolute top-14 left-2 z-10 flex max-w-[calc(100%-6.5rem)] flex-col items-start gap-2">
      {!isSeller && (
        <div className="pointer-events-auto">
          <InviteFamily callId={callId} />
        </div>
      )}
      {isSeller && asking.length > 0 && (
        <section
          aria-label={t('family.requests.title')}
          data-testid="family-requests"
          className="pointer-events-auto w-64 max-w-full rounded-lg bg-white p-2 text-ink shadow-xl"
        >
          <h2 className="px-1 text-sm font-semibold">{t('family.requests.title')}</h2>
          <ul className="mt-1 flex flex-col gap-1">
            {asking.map((g) => (
              <li key={g.id} className="flex items-center gap-1.5" data-testid="family-request">
                <span className="min-w-0 flex-1 truncate text-sm">{g.name}</span>
                <button
                  type="button"
                  onClick={() => void decide(g.id, 'admit')}
                  aria-label={t('family.requests.admitName', { name: g.name })}
                  className="h-9 rounded-md bg-brand-700 px-3 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {t('family.requests.admit')}
                </button>
                <button
                  type="button"
                  onClick={() => void decide(g.id, 'decline')}
                  aria-label={t('family.requests.declineName', { name: g.name })}
                  className="h-9 rounded-md border border-stone-300 px-2 text-sm hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {t('family.requests.decline')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {admitted.length > 0 && (
        <div className="flex flex-col gap-2" data-testid="family-tiles">
          {admitted.map((g) => (
            <FamilyTile
              key={g.id}
              party={g.party}
              stream={family.streams.get(g.party) ?? null}
              name={g.name}
              label={t('family.video', { name: g.name })}
              className="pointer-events-auto aspect-[3/4] w-20 sm:w-28"
            >
              {isSeller && (
                <button
                  type="button"
                  onClick={() => void decide(g.id, 'remove')}
                  aria-label={t('family.requests.remove', { name: g.name })}
                  className="absolute top-1 right-1 rounded-full bg-black/70 p-1 text-white hover:bg-black focus-visible:outline-2 focus-visible:outline-white"
                >
                  <X aria-hidden="true" className="h-3.5 w-3.5" />
                </button>
              )}
            </FamilyTile>
          ))}
        </div>
      )}
      <p
        role="status"
        data-testid="family-like"
        className={
          showLike
            ? 'max-w-full rounded-lg bg-black/80 px-3 py-1.5 text-sm font-medium text-white'
            : 'sr-only'
        }
      >
        {showLike && <LikeLine like={latest} />}
      </p>
    </div>
  );
}
