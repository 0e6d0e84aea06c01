import { BellRing, Volume2, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCall } from './call-provider';

function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

const chip =
  'inline-flex items-center gap-2 rounded-full border border-brand-100 bg-white px-3 py-2 text-sm font-medium text-brand-800 shadow-md hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * Sellers must not miss a call: until the first interaction unlocks audio, a small prompt offers to enable
 * ringing; while notifications are undecided, another offers to enable them (for calls in hidden tabs).
 */
export function SellerCallPrompts() {
  const { t } = useTranslation();
  const { audioUnlocked, unlockAudio } = useCall();
  const [permission, setPermission] = useState(notificationPermission);
  const [dismissed, setDismissed] = useState(false);
  const askNotifications = permission === 'default' && !dismissed;
  if (audioUnlocked && !askNotifications) return null;
  return (
    <div className="pointer-events-none fixed bottom-3 left-3 z-30 flex flex-col items-start gap-2 print:hidden">
      {!audioUnlocked && (
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
