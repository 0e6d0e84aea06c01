import { Wifi, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../../lib/online';
import { cn } from '../../../lib/cn';

const BACK_ONLINE_MS = 3000;

/**
 * Says when the browser is offline (pages keep showing what was seen before) and, briefly, when it is back.
 * The live region stays mounted so screen readers announce both changes.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  const [backOnline, setBackOnline] = useState(false);
  const [wasOffline, setWasOffline] = useState(!online);

  if (!online && !wasOffline) setWasOffline(true);
  if (online && wasOffline) {
    setWasOffline(false);
    setBackOnline(true);
  }
  useEffect(() => {
    if (!backOnline) return;
    const id = window.setTimeout(() => setBackOnline(false), BACK_ONLINE_MS);
    return () => window.clearTimeout(id);
  }, [backOnline]);

  const visible = !online || backOnline;
  return (
    <div role="status" data-testid="offline-banner" className={visible ? 'w-full sm:w-auto' : 'sr-only'}>
      {visible && (
        <p
          className={cn(
            'pointer-events-auto flex items-center gap-2 rounded-lg px-4 py-2.5 text-sm font-medium shadow-lg',
            online ? 'bg-emerald-800 text-white' : 'bg-ink text-white',
          )}
        >
          {online ? (
            <Wifi aria-hidden="true" className="h-4 w-4 shrink-0" />
          ) : (
            <WifiOff aria-hidden="true" className="h-4 w-4 shrink-0" />
          )}
          {online ? t('offline.backOnline') : t('offline.banner')}
        </p>
      )}
    </div>
  );
}
