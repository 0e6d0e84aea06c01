import type { TFunction } from 'i18next';
import type { CallItem } from '../../../../../api/contract/call-selling';
import { cn } from '../../../lib/cn';

/** A short line over the call, read out by a screen reader: what just happened on the other side. */
export interface CallNotice {
  /** Changes with every notice, so the same words said twice are read twice. */
  key: number;
  text: string;
  /** A second line shown under it (the message's words). */
  detail: string | null;
  /** The pieces a "showing" line names: those shown a moment later join it (each arrives as its own event). */
  products?: string[];
}

/** How long a notice stays on screen (ms); the chat and the cards keep what it said. */
export const NOTICE_MS = 8000;

/**
 * The notice for items that just arrived (issue #48 item 5, #49 item 7), or null: pieces and photos the other
 * side showed, the customer's hold or add-to-cart (for the jeweller), a message while the chat is closed
 * ("1 new message", with its words). The last of the batch that says something wins; pieces shown while a
 * "showing" line is still up join it.
 */
export function noticeFor(
  fresh: readonly CallItem[],
  opts: { t: TFunction; userId: number; isSeller: boolean; name: string; unread: number; chatOpen: boolean },
  shownBefore: CallNotice | null = null,
): CallNotice | null {
  const { t, userId, isSeller, name, unread, chatOpen } = opts;
  const theirs = fresh.filter((i) => i.fromUserId !== userId);
  const last = theirs.at(-1);
  if (!last) return null;
  const key = last.id;
  if (last.kind === 'product') {
    const products = [...(shownBefore?.products ?? [])];
    for (const i of theirs)
      if (i.kind === 'product' && !products.includes(i.product.name)) products.push(i.product.name);
    return {
      key,
      text: t('callCounter.shown', { name, product: products.join(', ') }),
      detail: null,
      products,
    };
  }
  if (last.kind === 'photo') return { key, text: t('callCounter.photo', { name }), detail: null };
  if (last.kind !== 'message') {
    if (!isSeller) return null;
    return {
      key,
      text: t(last.kind === 'hold' ? 'callCounter.held' : 'callCounter.carted', {
        name,
        product: last.product.name,
      }),
      detail: null,
    };
  }
  if (chatOpen || unread < 1) return null;
  return { key, text: t('callCounter.newMessages', { count: unread }), detail: last.text };
}

/**
 * The notice's place over the video, under the top bar and beside the small picture of oneself: a polite live
 * region that is always there (a region added with its words is not read by every screen reader). With the
 * chat open the line is for the screen reader alone (the chat shows the same in its list).
 */
export function CallNoticeLine({ notice, hidden }: { notice: CallNotice | null; hidden: boolean }) {
  return (
    <div
      role="status"
      data-testid="call-notice"
      className={cn('absolute top-14 right-24 left-2 z-10 sm:right-36 md:right-44', hidden && 'sr-only')}
    >
      {notice && (
        <p
          key={notice.key}
          className="rounded-lg bg-black/80 px-3 py-2 text-sm font-medium text-white shadow-lg"
        >
          <span className="block break-words">{notice.text}</span>
          {notice.detail && (
            <span className="block truncate font-normal text-stone-200">{notice.detail}</span>
          )}
        </p>
      )}
    </div>
  );
}
