import { BellRing, Volume2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
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

const chip =
  'inline-flex items-center gap-2 rounded-full border border-brand-100 bg-white px-3 py-2 text-sm font-medium text-brand-800 shadow-md hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * Sellers must not miss a call: where sound does not start by itself, a small prompt offers to enable
 * ringing (once per launch); while notifications are undecided, another offers to enable them (for calls in
 * hidden tabs, and where sound is refused).
 */
export function SellerCallPrompts() {
  const { t } = useTranslation();
  const { audioUnlocked, unlockAudio } = useCall();
  const [permission, setPermission] = useState(notificationPermission);
  const [dismissed, setDismissed] = useState(false);
  const askSound = useSoundPrompt(audioUnlocked);
  const askNotifications = permission === 'default' && !dismissed;
  if (!askSound && !askNotifications) return null;
  return (
    <div className="pointer-events-none fixed bottom-3 left-3 z-30 flex flex-col items-start gap-2 print:hidden">
      {askSound && (
        <button type="button" className={`${chip} pointer-events-auto`} onClick={unlockAudio}>
          <Volume2 aria-hidden="true" className="h-4 w-4" />
          {t('calls.prompts.enableRinging')}
        </button>
      )}
      {askNotifications && (
        <div className="pointer-events-auto flex items-center gap-1">
          <button
            type="button"
            className={chip}
            onClick={() => {
              void Notification.requestPermission().then(setPermission, () => setDismissed(true));
            }}
          >
            <BellRing aria-hidden="true" className="h-4 w-4" />
            {t('calls.prompts.enableNotifications')}
          </button>
          <button
            type="button"
            aria-label={t('calls.prompts.notNow')}
            title={t('calls.prompts.notNow')}
            className="rounded-full bg-white p-2 text-muted shadow-md hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
            onClick={() => setDismissed(true)}
          >
            <X aria-hidden="true" className="h-4 w-4" />
          </button>
        </div>
      )}
    </div>
  );
}
