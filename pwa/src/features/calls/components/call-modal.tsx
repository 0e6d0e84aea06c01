import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Mic, MicOff, PhoneOff, UserRound, Video, VideoOff } from 'lucide-react';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { translateMessage } from '../../../lib/i18n';
import { useVideoRoom } from '../../video/hooks/use-video-room';
import { markCall } from '../../video/lib/marks';
import { useCall } from './call-provider';

function MediaView({
  stream,
  kind,
  className,
  label,
}: {
  stream: MediaStream | null;
  kind: 'remote' | 'local' | 'audio';
  className?: string;
  label?: string;
}) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (el.srcObject !== stream) el.srcObject = stream;
    if (stream) void el.play().catch(() => undefined);
    if (stream && kind === 'remote' && 'requestVideoFrameCallback' in el)
      el.requestVideoFrameCallback(() => markCall('first-frame'));
  }, [stream, kind]);
  if (kind === 'audio') return <audio ref={ref} autoPlay data-testid="remote-audio" />;
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted
      aria-label={label}
      data-testid={kind === 'local' ? 'local-video' : 'remote-video'}
      className={className}
    />
  );
}

function ControlButton({
  title,
  onClick,
  children,
  danger,
  off,
}: {
  title: string;
  onClick: () => void;
  children: ReactNode;
  danger?: boolean;
  off?: boolean;
}) {
  return (
    <button
      type="button"
      title={title}
      aria-label={title}
      onClick={onClick}
      className={cn(
        'inline-flex h-14 w-14 items-center justify-center rounded-full shadow-lg transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
        danger
          ? 'bg-red-700 text-white hover:bg-red-800'
          : off
            ? 'bg-white text-ink hover:bg-stone-200'
            : 'bg-stone-700 text-white hover:bg-stone-600',
      )}
    >
      {children}
    </button>
  );
}

/** The full-screen call: remote and local video, remote audio, mute / camera / hang-up, status overlay. */
export default function CallModal() {
  const { t } = useTranslation();
  const { activeCall, callState, hangUp, endMeeting, noteActive } = useCall();
  const call = activeCall!;
  const callId = call.callId;
  const onActive = useCallback(() => noteActive(callId), [noteActive, callId]);
  const room = useVideoRoom({
    callId,
    enabled: call.status === 'active',
    isCaller: !call.isIncoming,
    onActive,
    onMeetingOver: endMeeting,
  });

  const onHangUp = () => {
    room.leave({ hangUp: true });
    void hangUp();
  };

  const name = call.participantName || t(call.isIncoming ? 'calls.defaultCaller' : 'calls.defaultSeller');
  const failedReason =
    callState === 'failed'
      ? t('calls.toast.hangUpFailed')
      : room.phase === 'failed' && room.error
        ? translateMessage(room.error)
        : null;
  const loading = !failedReason && (call.status !== 'active' || room.phase !== 'connected');
  const overlay = failedReason !== null || loading;
  const ringing = !call.isIncoming && call.status !== 'active';

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
          <div className="relative flex-1">
            <MediaView
              stream={room.remoteStream}
              kind="remote"
              label={t('calls.modal.remoteVideo', { name })}
              className="absolute inset-0 h-full w-full bg-black object-contain"
            />
            <MediaView stream={room.remoteStream} kind="audio" />
            {!room.remoteStream && !overlay && (
              <div className="absolute inset-0 flex items-center justify-center">
                <UserRound aria-hidden="true" className="h-24 w-24 text-stone-500" />
              </div>
            )}
            <div className="absolute top-3 left-3 rounded-md bg-black/60 px-3 py-1.5 text-sm font-medium">
              {name}
            </div>
            <MediaView
              stream={room.localStream}
              kind="local"
              label={t('calls.modal.localVideo')}
              className={cn(
                'absolute right-3 bottom-24 aspect-[4/3] w-28 -scale-x-100 rounded-lg border-2 border-white/70 bg-stone-800 object-cover shadow-lg sm:w-44 md:bottom-28 md:w-56',
                !room.localStream && 'invisible',
              )}
            />
            {overlay && (
              <div
                role={failedReason ? 'alert' : 'status'}
                className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-stone-950/90 p-6 text-center"
              >
                {failedReason ? (
                  <p className="max-w-md text-lg font-semibold">
                    {t('calls.modal.failed', { reason: failedReason })}
                  </p>
                ) : (
                  <>
                    <Spinner className="h-10 w-10 text-white" />
                    <p className="text-lg font-semibold">{t('calls.modal.loading')}</p>
                    {ringing && <p className="text-stone-300">{t('calls.modal.calling', { name })}</p>}
                    {room.notice && <p className="text-stone-300">{translateMessage(room.notice)}</p>}
                  </>
                )}
                <Button
                  variant="outline"
                  onClick={onHangUp}
                  className="mt-2 border-white/40 bg-transparent text-white hover:bg-white/10"
                >
                  {failedReason ? t('common.close') : t('common.cancel')}
                </Button>
              </div>
            )}
          </div>
          {!overlay && (
            <div className="flex items-center justify-center gap-4 bg-stone-900/95 px-4 py-4 pb-[max(1rem,env(safe-area-inset-bottom))]">
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
              <ControlButton title={t('calls.modal.endCall')} onClick={onHangUp} danger>
                <PhoneOff aria-hidden="true" className="h-6 w-6" />
              </ControlButton>
            </div>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
