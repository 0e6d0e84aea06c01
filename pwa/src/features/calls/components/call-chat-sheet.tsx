import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Send, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_CHAT_MAX_CHARS, type CallItem } from '../../../../../api/contract/call-selling';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { translateMessage } from '../../../lib/i18n';
import { sellingApi } from '../api';
import { CallProductActions, CallProductSummary } from './call-product-card';

/** The call's chat as a list: the other side's messages on the left, mine on the right, linked pieces as cards. */
export function ChatMessages({
  items,
  userId,
  callId,
  canBuy,
}: {
  items: CallItem[];
  userId: number;
  callId: number;
  canBuy: boolean;
}) {
  const { t } = useTranslation();
  const messages = items.filter((i) => i.kind === 'message');
  if (!messages.length) return <p className="py-6 text-center text-muted">{t('calls.selling.noMessages')}</p>;
  return (
    <ol className="space-y-2" aria-label={t('calls.selling.chat')} data-testid="chat-messages">
      {messages.map((m) => {
        const mine = m.fromUserId === userId;
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
                {canBuy && <CallProductActions callId={callId} product={p} hold={null} compact />}
              </div>
            ))}
          </li>
        );
      })}
    </ol>
  );
}

/** The chat panel of a call: a bottom sheet over the video, focus kept inside, the message box at the bottom. */
export function CallChatSheet({
  open,
  onOpenChange,
  callId,
  items,
  userId,
  isSeller,
  onSent,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  callId: number;
  items: CallItem[];
  userId: number;
  isSeller: boolean;
  onSent: (items: CallItem[]) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const count = items.filter((i) => i.kind === 'message').length;
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

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-[65] bg-black/40" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-x-0 bottom-0 z-[65] flex max-h-[75dvh] flex-col rounded-t-2xl bg-white text-ink shadow-2xl focus:outline-none md:inset-x-auto md:right-6 md:bottom-6 md:w-96 md:rounded-2xl"
        >
          <div className="flex items-center justify-between border-b border-stone-200 px-4 py-2">
            <DialogPrimitive.Title className="font-semibold">{t('calls.selling.chat')}</DialogPrimitive.Title>
            <DialogPrimitive.Close
              aria-label={t('common.close')}
              className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </DialogPrimitive.Close>
          </div>
          <div ref={listRef} className="min-h-32 flex-1 overflow-y-auto px-3 py-3">
            <ChatMessages items={items} userId={userId} callId={callId} canBuy={!isSeller} />
          </div>
          <form
            onSubmit={(e) => void submit(e)}
            className="border-t border-stone-200 p-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]"
          >
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
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
