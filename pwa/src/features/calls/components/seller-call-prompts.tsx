import { BellRing, Volume2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderSlot } from '../../../app/header-slots';
import { Button } from '../../../components/ui/button';
import { tryAudioWithoutGesture } from '../lib/ringtone';
import { useCall } from './call-provider';

/** The sound prompt is offered at most once per launch of the app: this tab's session remembers it. */
const SOUND_PROMPT_KEY = 'nagai:sound-prompt-shown';
/** How long sound may take to start on its own before the prompt is offered. */
const SOUND_PROMPT_DELAY_MS = 600;

function soundPromptShown(): boolean {
  try {
    return sessionStorage.getItem(SOUND_PROMPT_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Whether to offer 'Tap to enable call ringing': only where sound did not start on its own, and once per
 * launch (after it has gone, a context the system suspended again is resumed by the next gesture anyway).
 */
function useSoundPrompt(audioUnlocked: boolean): boolean {
  const [phase, setPhase] = useState<'waiting' | 'offered' | 'done'>(() =>
    soundPromptShown() ? 'done' : 'waiting',
  );
  useEffect(() => {
    tryAudioWithoutGesture();
  }, []);
  useEffect(() => {
    if (phase !== 'waiting' || audioUnlocked) return;
    const timer = setTimeout(() => {
      setPhase('offered');
      try {
        sessionStorage.setItem(SOUND_PROMPT_KEY, '1');
      } catch {
        /* without storage: once per page */
      }
    }, SOUND_PROMPT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, audioUnlocked]);
  if (phase === 'offered' && audioUnlocked) setPhase('done');
  return phase === 'offered' && !audioUnlocked;
}

function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** "Not now" on the notifications prompt holds for this device: its browser's storage remembers it. */
export const NOTIFICATIONS_PROMPT_DISMISSED_KEY = 'nagai:notifications-prompt-dismissed';

function notificationsPromptDismissed(): boolean {
  try {
    return localStorage.getItem(NOTIFICATIONS_PROMPT_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

const chip =
  'inline-flex items-center gap-2 rounded-full border border-brand-100 bg-white px-3 py-2 text-sm font-medium text-brand-800 shadow-md hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * Sellers must not miss a call: where sound does not start by itself, a small prompt offers to enable
 * ringing (once per launch, gone at a tap); while notifications are undecided, a notice under the header, in
 * the page's flow (it covers nothing), offers to enable them (for calls in hidden tabs, and where sound is
 * refused). "Not now" hides that notice on this device for good (issue #48).
 */
export function SellerCallPrompts() {
  const { t } = useTranslation();
  const { audioUnlocked, unlockAudio } = useCall();
  const [permission, setPermission] = useState(notificationPermission);
  const [dismissed, setDismissed] = useState(notificationsPromptDismissed);
  const askSound = useSoundPrompt(audioUnlocked);
  const askNotifications = permission === 'default' && !dismissed;
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(NOTIFICATIONS_PROMPT_DISMISSED_KEY, '1');
    } catch {
      /* without storage: hidden until the page is loaded again */
    }
  };
  return (
    <>
      {askSound && (
        <div className="pointer-events-none fixed bottom-3 left-3 z-30 print:hidden">
          <button type="button" className={`${chip} pointer-events-auto`} onClick={unlockAudio}>
            <Volume2 aria-hidden="true" className="h-4 w-4" />
            {t('calls.prompts.enableRinging')}
          </button>
        </div>
      )}
      {askNotifications && (
        <HeaderSlot name="notices">
          <section
            aria-labelledby="notifications-prompt-title"
            className="border-b border-brand-100 bg-brand-50 print:hidden"
            data-testid="notifications-prompt"
          >
            <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
              <BellRing aria-hidden="true" className="h-5 w-5 shrink-0 text-brand-700" />
              <div className="min-w-0 flex-1 basis-56">
                <p id="notifications-prompt-title" className="text-sm font-semibold text-ink">
                  {t('sellerPhone.prompts.notificationsTitle')}
                </p>
                <p className="text-sm text-muted">{t('sellerPhone.prompts.notificationsBody')}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  onClick={() => {
                    void Notification.requestPermission().then(setPermission, dismiss);
                  }}
                >
                  {t('calls.prompts.enableNotifications')}
                </Button>
                <Button variant="outline" onClick={dismiss}>
                  {t('calls.prompts.notNow')}
                </Button>
              </div>
            </div>
          </section>
        </HeaderSlot>
      )}
    </>
  );
}
