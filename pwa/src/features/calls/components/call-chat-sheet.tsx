import { Send, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CALL_CHAT_MAX_CHARS,
  type CallItem,
  type ProductHold,
} from '../../../../../api/contract/call-selling';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { translateMessage } from '../../../lib/i18n';
import { sellingApi } from '../api';
import { CallProductActions, CallProductSummary } from './call-product-card';

/**
 * The call's chat as a list: the other side's messages on the left, mine on the right, linked pieces as cards.
 * With `otherName`, the customer's holds and adds to the cart during the call are lines in it too (issue #48).
 */
export function ChatMessages({
  items,
  userId,
  callId,
  canBuy,
  holds,
  onHeld,
  otherName,
}: {
  items: CallItem[];
  userId: number;
  callId: number;
  canBuy: boolean;
  /** The customer's holds by product: a piece already held is not offered to hold again. */
  holds?: ReadonlyMap<number, ProductHold>;
  onHeld?: (hold: ProductHold) => void;
  /** The other side's name, for the lines of the customer's holds and adds to the cart. */
  otherName?: string;
}) {
  const { t } = useTranslation();
  const lines = items.filter(
    (i) => i.kind === 'message' || (otherName !== undefined && (i.kind === 'hold' || i.kind === 'cart')),
  );
  if (!lines.length) return <p className="py-6 text-center text-muted">{t('calls.selling.noMessages')}</p>;
  return (
    <ol className="space-y-2" aria-label={t('calls.selling.chat')} data-testid="chat-messages">
      {lines.map((m) => {
        const mine = m.fromUserId === userId;
        if (m.kind === 'hold' || m.kind === 'cart') {
          const held = m.kind === 'hold';
          const text = mine
            ? t(held ? 'callCounter.youHeld' : 'callCounter.youCarted', { product: m.product.name })
            : t(held ? 'callCounter.held' : 'callCounter.carted', {
                name: otherName,
                product: m.product.name,
              });
          return (
            <li
              key={m.id}
              className="text-center text-sm font-medium text-stone-700"
              data-testid="call-activity"
            >
              {text}
            </li>
          );
        }
        if (m.kind !== 'message') return null;
        return (
          <li key={m.id} className={cn('flex flex-col', mine ? 'items-end' : 'items-start')}>
            <p
              className={cn(
                'max-w-[85%] rounded-2xl px-3 py-2 break-words whitespace-pre-wrap',
                mine ? 'bg-brand-700 text-white' : 'bg-stone-100 text-ink',
              )}
            >
              <span className="sr-only">{mine ? t('calls.selling.you') : t('calls.selling.them')}: </span>
              {m.text}
            </p>
            {m.products.map((p) => (
              <div
                key={p.id}
                className="mt-1 w-full max-w-[85%] space-y-2 rounded-xl border border-stone-200 bg-white p-2"
              >
                <CallProductSummary product={p} />
                {canBuy && (
                  <CallProductActions
                    callId={callId}
                    product={p}
                    hold={holds?.get(p.id) ?? null}
                    onHeld={onHeld}
                    compact
                  />
                )}
              </div>
            ))}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The chat panel of a call: a sheet over the video, above the call's controls, the message box at its bottom.
 */
export function CallChatSheet({
  open,
  onOpenChange,
  callId,
  items,
  userId,
  isSeller,
  onSent,
  holds,
  otherName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  callId: number;
  items: CallItem[];
  userId: number;
  isSeller: boolean;
  onSent: (items: CallItem[]) => void;
  holds?: ReadonlyMap<number, ProductHold>;
  /** The other side's name (the lines of the customer's holds and adds to the cart). */
  otherName: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const count = items.filter((i) => i.kind === 'message' || i.kind === 'hold' || i.kind === 'cart').length;
  useEffect(() => {
    const el = listRef.current;
    if (open && el) el.scrollTop = el.scrollHeight;
  }, [open, count]);

  // Set at once (a state update shows only on the next render): a second Enter meanwhile sends nothing twice.
  const sendingRef = useRef(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value || sendingRef.current) return;
    sendingRef.current = true;
    setSending(true);
    setError(null);
    // The box empties as the message leaves, not when the server answers: the message itself comes back on
    // the event stream ('item', to the sender too), often before the answer, and must not show in the list
    // and in the box at once.
    setText('');
    // Typing goes on in the box after a tap on Send: the emptied box disables Send, and a focused button that
    // becomes disabled leaves the focus on the page in Firefox (no typing, no Escape to close the chat).
    boxRef.current?.focus();
    try {
      const res = await sellingApi.message(callId, value);
      onSent(res.items);
    } catch (err) {
      // Not sent: the text goes back in the box to send again, ahead of anything typed since.
      setText((typed) => (typed.trim() ? `${value}\n${typed}` : value));
      setError(translateMessage(errorMessage(err)));
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  // Focus moves into the panel when it opens and back to the control that opened it when it closes.
  const boxRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    boxRef.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    // Not modal: on a phone the panel covers the video above the call's controls, which stay on screen and
    // usable (mute, hang up) while the chat is open (issue #40). Escape closes it.
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby="call-chat-title"
      data-testid="call-chat"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onOpenChange(false);
        }
      }}
      className="absolute inset-x-0 bottom-0 z-20 flex max-h-[calc(100%-3.5rem)] flex-col rounded-t-2xl bg-white text-ink shadow-2xl md:inset-x-auto md:right-4 md:bottom-4 md:w-96 md:rounded-2xl"
    >
      <div className="flex items-center justify-between border-b border-stone-200 px-4 py-1">
        <h2 id="call-chat-title" className="font-semibold">
          {t('calls.selling.chat')}
        </h2>
        <button
          type="button"
          onClick={() => onOpenChange(false)}
          aria-label={t('common.close')}
          className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </div>
      <div ref={listRef} className="min-h-24 flex-1 overflow-y-auto px-3 py-3">
        <ChatMessages
          items={items}
          userId={userId}
          callId={callId}
          canBuy={!isSeller}
          holds={holds}
          otherName={otherName}
        />
      </div>
      <form onSubmit={(e) => void submit(e)} className="border-t border-stone-200 p-2">
        {error && (
          <p role="alert" className="px-1 pb-1 text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex items-end gap-2">
          <label htmlFor="call-chat-input" className="sr-only">
            {t('calls.selling.messageLabel')}
          </label>
          <textarea
            id="call-chat-input"
            ref={boxRef}
            rows={1}
            value={text}
            maxLength={CALL_CHAT_MAX_CHARS}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
            placeholder={t('calls.selling.messagePlaceholder')}
            className="min-h-11 min-w-0 flex-1 resize-none rounded-xl border border-stone-300 px-3 py-2.5 text-base focus-visible:outline-2 focus-visible:outline-brand-600"
          />
          <button
            type="submit"
            disabled={sending || !text.trim()}
            aria-label={t('calls.selling.send')}
            className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white hover:bg-brand-800 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            <Send aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
      </form>
    </div>
  );
}
