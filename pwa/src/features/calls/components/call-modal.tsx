import * as DialogPrimitive from '@radix-ui/react-dialog';
import {
  Camera,
  MessageCircle,
  Mic,
  MicOff,
  PhoneOff,
  Signal,
  SignalLow,
  SignalMedium,
  ShoppingBag,
  Video,
  VideoOff,
} from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { initials } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { videoQueries } from '../../video/api';
import { useVideoRoom } from '../../video/hooks/use-video-room';
import { FamilyInCall, useSharedVideo } from '../family/family-in-call';
import { markCall } from '../../video/lib/marks';
import { useStreamPlayback } from '../../video/hooks/use-stream-playback';
import type { ProductHold } from '../../../../../api/contract/call-selling';
import { sellingApi, sellingQueries } from '../api';
import { useCallItems } from '../hooks/use-call-items';
import { takePhoto } from '../lib/take-photo';
import { useCall } from './call-provider';
import { CallChatSheet } from './call-chat-sheet';
import { CallTryOnProvider } from '../../tryon/public';
import { CallItemsStrip } from './call-items-strip';
import { EndCallConfirm } from './end-call-confirm';
import { CallNoticeLine, NOTICE_MS, noticeFor, type CallNotice } from './call-notice';
import { PhotoPreviewDialog } from './photo-preview-dialog';
import { ShowProductSheet } from './show-product-sheet';

/** True while the video shows (nearly) nothing but black: a camera turned off on the other side. */
function useBlackVideo(ref: React.RefObject<HTMLVideoElement | null>, stream: MediaStream | null): boolean {
  const [black, setBlack] = useState(false);
  useEffect(() => {
    if (!stream) return;
    const canvas = document.createElement('canvas');
    canvas.width = 8;
    canvas.height = 8;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    let dark = 0;
    const timer = setInterval(() => {
      const el = ref.current;
      if (!ctx || !el || el.readyState < 2 || !el.videoWidth) return;
      ctx.drawImage(el, 0, 0, 8, 8);
      const px = ctx.getImageData(0, 0, 8, 8).data;
      let max = 0;
      for (let i = 0; i < px.length; i += 4) max = Math.max(max, px[i]!, px[i + 1]!, px[i + 2]!);
      // Two dark samples in a row: a camera that is off, not a dark scene for a moment.
      dark = max < 24 ? dark + 1 : 0;
      setBlack(dark >= 2);
    }, 700);
    return () => {
      clearInterval(timer);
      setBlack(false);
    };
  }, [ref, stream]);
  return black && stream !== null;
}

function Initials({ name, small }: { name: string; small?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex items-center justify-center rounded-full bg-brand-700 font-semibold text-white',
        small ? 'h-12 w-12 text-lg' : 'h-28 w-28 text-4xl',
      )}
    >
      {initials(name)}
    </span>
  );
}

const markFirstFrame = () => markCall('first-frame');

function RemoteView({ stream, name, label }: { stream: MediaStream | null; name: string; label: string }) {
  const { videoRef: ref, audioRef } = useStreamPlayback(stream, markFirstFrame);
  const black = useBlackVideo(ref, stream);
  return (
    <>
      <video
        ref={ref}
        autoPlay
        playsInline
        muted
        aria-label={label}
        data-testid="remote-video"
        className="absolute inset-0 h-full w-full bg-black object-contain"
      />
      <audio ref={audioRef} autoPlay data-testid="remote-audio" />
      {(!stream || black) && (
        <div
          className="absolute inset-0 flex items-center justify-center bg-stone-900"
          data-testid="remote-initials"
        >
          <Initials name={name} />
        </div>
      )}
    </>
  );
}

function LocalView({
  stream,
  videoOn,
  name,
  label,
}: {
  stream: MediaStream | null;
  videoOn: boolean;
  name: string;
  label: string;
}) {
  const { videoRef: ref } = useStreamPlayback(stream);
  return (
    <div
      className={cn(
        'absolute top-14 right-2 aspect-[3/4] w-20 overflow-hidden rounded-lg border-2 border-white/70 bg-stone-800 shadow-lg sm:w-32 md:w-40',
        !stream && 'invisible',
      )}
    >
      <video
        ref={ref}
        autoPlay
        playsInline
        muted
        aria-label={label}
        data-testid="local-video"
        className="h-full w-full -scale-x-100 object-cover"
      />
      {!videoOn && (
        <div
          className="absolute inset-0 flex items-center justify-center bg-stone-800"
          data-testid="local-initials"
        >
          <Initials name={name} small />
        </div>
      )}
    </div>
  );
}

function ControlButton({
  title,
  onClick,
  children,
  danger,
  off,
  badge,
  label,
  busy,
  testId,
}: {
  title: string;
  /** The accessible name when it says more than the title ("Chat, 1 new message"). */
  label?: string;
  onClick: () => void;
  children: ReactNode;
  danger?: boolean;
  off?: boolean;
  badge?: number;
  busy?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      title={title}
      aria-label={label ?? title}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={onClick}
      data-testid={testId}
      className={cn(
        'relative inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-full shadow-lg transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-70 sm:h-14 sm:w-14',
        danger
          ? 'bg-red-700 text-white hover:bg-red-800'
          : off
            ? 'bg-white text-ink hover:bg-stone-200'
            : 'bg-stone-700 text-white hover:bg-stone-600',
      )}
    >
      {busy ? <Spinner className="h-5 w-5" /> : children}
      {!!badge && (
        <span
          aria-hidden="true"
          className="absolute -top-1 -right-1 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-gold-400 px-1 text-xs font-bold text-ink"
        >
          {badge}
        </span>
      )}
    </button>
  );
}

/** m:ss since `since`, ticking every second. */
function useElapsed(since: number | null): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  if (since === null) return '0:00';
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The full-screen call, laid out for a 360 px phone first: the other side's video (their initials when the
 * camera is off), a top bar with the name, the running time and the connection, the pieces and photos the
 * jeweller shows as cards over the video, and one row of thumb-sized controls: mute, camera, (the jeweller's)
 * show a product and send a photo, chat, hang up.
 */
export default function CallModal() {
  const { t } = useTranslation();
  const { activeCall, callState, hangUp, endMeeting, endOnItsOwn, noteActive, user } = useCall();
  const call = activeCall!;
  const callId = call.callId;
  const isSeller = user.role === 'seller';
  const onActive = useCallback(() => noteActive(callId), [noteActive, callId]);
  const room = useVideoRoom({
    callId,
    enabled: call.status === 'active',
    // The side that rang offers; the side rung answers (a jeweller's call-back rings the customer).
    isCaller: !call.isIncoming,
    onActive,
    onMeetingOver: endMeeting,
  });
  const { items, add, ready } = useCallItems(callId);
  const video = useSharedVideo(room); // the try-on's picture goes to the jeweller and to every guest
  // Guests join the p2p mesh; a call on Twilio offers no family yet (docs/product-rules.md §21.4).
  const p2p = useQuery({ ...videoQueries.token(callId), enabled: false }).data?.provider === 'p2p';
  // The customer's holds of the call's pieces, for the cards, the viewer and the chat alike: those made now,
  // and (from the call's summary) any still active from an earlier call, so a held piece is not offered again.
  const [heldNow, setHeldNow] = useState<ReadonlyMap<number, ProductHold>>(() => new Map());
  const onHeld = useCallback(
    (hold: ProductHold) => setHeldNow((prev) => new Map(prev).set(hold.productId, hold)),
    [],
  );
  const earlier = useQuery({
    ...sellingQueries.inCallHolds(callId),
    // Only when the call has pieces to hold: the one asked about, or one shown.
    enabled:
      !isSeller &&
      call.status === 'active' &&
      (!!call.product ||
        items.some((i) => i.kind === 'product' || (i.kind === 'message' && i.products.length > 0))),
  });
  const holds = useMemo(() => {
    const all = new Map<number, ProductHold>();
    for (const h of earlier.data ?? []) if (h.status === 'active') all.set(h.productId, h);
    for (const [k, v] of heldNow) all.set(k, v);
    return all;
  }, [earlier.data, heldNow]);
  const [panel, setPanel] = useState<'chat' | 'products' | null>(null);
  const [seenMessages, setSeenMessages] = useState(0);
  // The jeweller's photo: taken, previewed (Send / Retake), then sent (issue #48).
  const [preview, setPreview] = useState<string | null>(null);
  const [takingPhoto, setTakingPhoto] = useState(false);
  const [sendingPhoto, setSendingPhoto] = useState(false);
  const [notice, setNotice] = useState<CallNotice | null>(null);

  const onHangUp = () => {
    setEndHolds(null);
    room.leave({ hangUp: true });
    void hangUp();
  };
  // Ending a call while the customer holds a piece of it asks first (issue #48). The jeweller reads the
  // customer's holds afresh; if that fails, the call ends as asked.
  const [endHolds, setEndHolds] = useState<ProductHold[] | null>(null);
  const requestHangUp = async () => {
    let active = [...holds.values()].filter((h) => h.status === 'active');
    if (isSeller) {
      try {
        const detail = await sellingApi.detail(callId, AbortSignal.timeout(3000));
        active = detail.holds.filter((h) => h.status === 'active');
      } catch {
        active = [];
      }
    }
    if (active.length) setEndHolds(active);
    else onHangUp();
  };

  // A call that cannot go on (no network path, media lost for 30 s) ends for both sides, saying why.
  const endReason = room.endReason;
  useEffect(() => {
    if (endReason) endOnItsOwn(endReason);
  }, [endReason, endOnItsOwn]);
  const reconnectingFor = useElapsed(room.reconnecting?.since ?? null);
  const connected = call.status === 'active' && room.phase === 'connected';
  const elapsed = useElapsed(connected ? (call.answeredAt ?? null) : null);

  const name = call.participantName || t(isSeller ? 'calls.defaultCaller' : 'calls.defaultSeller');
  const failedReason =
    callState === 'failed'
      ? t('calls.toast.hangUpFailed')
      : room.phase === 'failed' && room.error
        ? translateMessage(room.error)
        : null;
  const loading = !failedReason && !connected;
  const overlay = failedReason !== null || loading;
  const ringing = !call.isIncoming && call.status !== 'active';

  const messages = items.filter((i) => i.kind === 'message');
  const theirMessages = messages.filter((m) => m.fromUserId !== user.id).length;
  // What the other side wrote while the chat was closed.
  const unread = panel === 'chat' ? 0 : Math.max(0, theirMessages - seenMessages);
  const showPanel = (next: 'chat' | 'products' | null) => {
    if (panel === 'chat' || next === 'chat') setSeenMessages(theirMessages);
    setPanel(next);
  };

  // Set at once (a state update shows only on the next render): a second tap meanwhile does nothing twice.
  const photoBusy = useRef(false);
  const capturePhoto = async () => {
    if (photoBusy.current) return;
    const track = room.localStream?.getVideoTracks()[0];
    if (!track || track.readyState !== 'live') {
      toast.error(t('calls.selling.photoNoCamera'));
      return;
    }
    photoBusy.current = true;
    setTakingPhoto(true);
    try {
      setPreview(await takePhoto(track));
    } catch (err) {
      toast.error(translateMessage(errorMessage(err, t('calls.selling.photoFailed'))));
    } finally {
      photoBusy.current = false;
      setTakingPhoto(false);
    }
  };
  const sendPhoto = async () => {
    if (photoBusy.current || preview === null) return;
    photoBusy.current = true;
    setSendingPhoto(true);
    try {
      const res = await sellingApi.photo(callId, preview);
      add(res.items);
      setPreview(null);
      toast.success(t('calls.selling.photoSent'));
    } catch (err) {
      // The preview stays: Send again, or Retake.
      toast.error(translateMessage(errorMessage(err, t('calls.selling.photoFailed'))));
    } finally {
      photoBusy.current = false;
      setSendingPhoto(false);
    }
  };

  // What arrives after the call's screen opened is news: announced in a line over the video. A piece or a
  // photo shown is never left behind the chat: the chat closes (what was typed stays in its box) and the strip
  // brings the new card into view (issue #49).
  const announcedUpTo = useRef<number | null>(null);
  useEffect(() => {
    if (!ready) return;
    const last = items.at(-1)?.id ?? 0;
    if (announcedUpTo.current === null) {
      announcedUpTo.current = last;
      return;
    }
    const seen = announcedUpTo.current;
    const fresh = items.filter((i) => i.id > seen);
    if (!fresh.length) return;
    announcedUpTo.current = last;
    const shownNow = fresh.some((i) => i.kind === 'product' || i.kind === 'photo');
    const chatOpen = panel === 'chat' && !shownNow;
    if (panel === 'chat' && shownNow) {
      setSeenMessages(theirMessages);
      setPanel(null);
    }
    const opts = { t, userId: user.id, isSeller, name, unread, chatOpen };
    setNotice((prev) => noticeFor(fresh, opts, prev?.products ? prev : null) ?? prev);
  }, [ready, items, panel, t, user.id, isSeller, name, unread, theirMessages]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  return (
    <DialogPrimitive.Root open modal>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/80" />
        <DialogPrimitive.Content
          data-call-id={call.callId}
          data-call-state={callState}
          data-video-phase={room.phase}
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          aria-describedby={undefined}
          className="fixed inset-0 z-50 flex flex-col overflow-hidden bg-stone-950 text-white focus:outline-none md:inset-6 md:rounded-2xl"
        >
          <DialogPrimitive.Title className="sr-only">
            {t('calls.modal.title', { name })}
          </DialogPrimitive.Title>
          <div className="relative min-h-0 flex-1">
            <RemoteView
              stream={room.remoteStream}
              name={name}
              label={t('calls.modal.remoteVideo', { name })}
            />
            <div className="absolute inset-x-0 top-0 flex items-center gap-2 bg-gradient-to-b from-black/80 to-transparent px-3 pt-[max(0.5rem,env(safe-area-inset-top))] pb-6">
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold">{name}</p>
                {call.product && (
                  <p className="truncate text-sm text-stone-200" data-testid="call-about">
                    {t('calls.selling.about', { name: call.product.name })}
                  </p>
                )}
              </div>
              {connected && (
                <span
                  className="rounded-md bg-black/60 px-2 py-1 text-sm font-medium tabular-nums"
                  data-testid="call-timer"
                  aria-label={t('calls.modal.elapsed', { time: elapsed })}
                >
                  {elapsed}
                </span>
              )}
              {room.quality && !overlay && (
                <span
                  data-testid="connection-quality"
                  data-quality={room.quality}
                  title={t(`calls.modal.quality.${room.quality}`)}
                  className="inline-flex items-center rounded-md bg-black/60 p-1.5"
                >
                  {room.quality === 'good' ? (
                    <Signal aria-hidden="true" className="h-4 w-4 text-green-400" />
                  ) : room.quality === 'fair' ? (
                    <SignalMedium aria-hidden="true" className="h-4 w-4 text-amber-300" />
                  ) : (
                    <SignalLow aria-hidden="true" className="h-4 w-4 text-red-400" />
                  )}
                  <span className="sr-only">{t(`calls.modal.quality.${room.quality}`)}</span>
                </span>
              )}
            </div>
            {room.reconnecting && !overlay && (
              <div
                role="status"
                data-testid="reconnecting"
                className="absolute inset-x-3 top-16 mx-auto flex max-w-md items-center justify-center gap-3 rounded-lg bg-black/80 px-4 py-3 text-center font-semibold"
              >
                <Spinner className="h-5 w-5 shrink-0 text-white" />
                <span>
                  {room.reconnecting.localOffline
                    ? t('calls.modal.reconnecting', { time: reconnectingFor })
                    : t('calls.modal.remoteDropped', { name, time: reconnectingFor })}
                </span>
              </div>
            )}
            {room.audioOnly && !room.reconnecting && !overlay && (
              <p
                role="status"
                className="absolute inset-x-3 top-16 mx-auto max-w-md rounded-lg bg-black/80 px-4 py-3 text-center text-sm font-medium"
              >
                {t('calls.modal.audioOnly')}
              </p>
            )}
            <LocalView
              stream={room.localStream}
              videoOn={room.videoEnabled}
              name={user.displayName}
              label={t('calls.modal.localVideo')}
            />
            {/* Family in the call (issue #52): the guests' videos, Invite family, the jeweller's Admit. */}
            {!overlay && p2p && <FamilyInCall callId={callId} isSeller={isSeller} video={video} live />}
            {!overlay && <CallNoticeLine notice={notice} hidden={panel === 'chat'} />}
            {!overlay && (
              // The customer tries a shown piece on: the call sends the composited picture (issue #36).
              <CallTryOnProvider swap={video.swap}>
                <CallItemsStrip
                  callId={callId}
                  items={items}
                  isSeller={isSeller}
                  userId={user.id}
                  about={call.product ?? null}
                  holds={holds}
                  onHeld={onHeld}
                />
              </CallTryOnProvider>
            )}
            {!overlay && (
              <CallChatSheet
                open={panel === 'chat'}
                onOpenChange={(o) => showPanel(o ? 'chat' : null)}
                callId={callId}
                items={items}
                userId={user.id}
                isSeller={isSeller}
                onSent={add}
                holds={holds}
                otherName={name}
              />
            )}
            {overlay && (
              <div
                role={failedReason ? 'alert' : 'status'}
                className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-stone-950/95 p-6 text-center"
              >
                {failedReason ? (
                  <p className="max-w-md text-lg font-semibold">
                    {t('calls.modal.failed', { reason: failedReason })}
                  </p>
                ) : (
                  <>
                    <Spinner className="h-10 w-10 text-white" />
                    <p className="text-lg font-semibold">{t('calls.modal.loading')}</p>
                    {ringing && <p className="text-stone-200">{t('calls.modal.calling', { name })}</p>}
                    {call.product && (
                      <p className="max-w-xs text-stone-200">
                        {t('calls.selling.about', { name: call.product.name })}
                      </p>
                    )}
                    {room.notice && <p className="text-stone-200">{translateMessage(room.notice)}</p>}
                  </>
                )}
                <button
                  type="button"
                  onClick={onHangUp}
                  className="mt-2 inline-flex h-12 items-center justify-center gap-2 rounded-full bg-red-700 px-6 font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                >
                  <PhoneOff aria-hidden="true" className="h-5 w-5" />
                  {failedReason ? t('common.close') : t('common.cancel')}
                </button>
              </div>
            )}
          </div>
          {!overlay && (
            <div
              className="flex items-center justify-center gap-2 bg-stone-900 px-2 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:gap-4"
              data-testid="call-controls"
            >
              <ControlButton
                title={room.audioEnabled ? t('calls.modal.mute') : t('calls.modal.unmute')}
                onClick={room.toggleAudio}
                off={!room.audioEnabled}
              >
                {room.audioEnabled ? (
                  <Mic aria-hidden="true" className="h-6 w-6" />
                ) : (
                  <MicOff aria-hidden="true" className="h-6 w-6" />
                )}
              </ControlButton>
              <ControlButton
                title={room.videoEnabled ? t('calls.modal.cameraOff') : t('calls.modal.cameraOn')}
                onClick={room.toggleVideo}
                off={!room.videoEnabled}
              >
                {room.videoEnabled ? (
                  <Video aria-hidden="true" className="h-6 w-6" />
                ) : (
                  <VideoOff aria-hidden="true" className="h-6 w-6" />
                )}
              </ControlButton>
              {isSeller && (
                <>
                  <ControlButton title={t('calls.selling.showProduct')} onClick={() => showPanel('products')}>
                    <ShoppingBag aria-hidden="true" className="h-6 w-6" />
                  </ControlButton>
                  <ControlButton
                    title={t('calls.selling.sendPhoto')}
                    onClick={() => void capturePhoto()}
                    busy={takingPhoto}
                  >
                    <Camera aria-hidden="true" className="h-6 w-6" />
                  </ControlButton>
                </>
              )}
              <ControlButton
                title={t('calls.selling.chat')}
                label={unread ? t('callCounter.chatUnread', { count: unread }) : undefined}
                onClick={() => showPanel('chat')}
                badge={unread}
              >
                <MessageCircle aria-hidden="true" className="h-6 w-6" />
              </ControlButton>
              <ControlButton title={t('calls.modal.endCall')} onClick={() => void requestHangUp()} danger>
                <PhoneOff aria-hidden="true" className="h-6 w-6" />
              </ControlButton>
            </div>
          )}
          {isSeller && (
            <ShowProductSheet
              open={panel === 'products'}
              onOpenChange={(o) => showPanel(o ? 'products' : null)}
              callId={callId}
              onShared={add}
            />
          )}
          <EndCallConfirm
            holds={endHolds}
            isSeller={isSeller}
            name={name}
            onStay={() => setEndHolds(null)}
            onEnd={onHangUp}
          />
          {isSeller && (
            <PhotoPreviewDialog
              image={preview}
              busy={sendingPhoto}
              sending={sendingPhoto}
              onSend={() => void sendPhoto()}
              // Back to the camera to frame the piece again; "Send a photo" takes the next one.
              onRetake={() => setPreview(null)}
              onCancel={() => setPreview(null)}
            />
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
