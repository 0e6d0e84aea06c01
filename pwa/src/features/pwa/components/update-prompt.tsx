import { RefreshCw } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { applyUpdate, dismissUpdate, getUpdateStatus, subscribeUpdateStatus } from '../sw-registration';

/** 'A new version is available — Reload': the only way a new version reaches an open page. */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const status = useSyncExternalStore(subscribeUpdateStatus, getUpdateStatus, () => 'idle' as const);
  if (status === 'idle') return null;
  const message =
    status === 'after-call'
      ? t('pwa.update.afterCall')
      : status === 'reloading'
        ? t('pwa.update.reloading')
        : t('pwa.update.available');
  return (
    <section
      aria-label={t('pwa.update.region')}
      data-testid="update-prompt"
      className="pointer-events-auto w-full rounded-lg border border-stone-200 bg-white p-3 shadow-lg sm:max-w-sm"
    >
      <div className="flex items-start gap-3">
        <RefreshCw aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
        <p role="status" className="flex-1 text-sm text-ink">
          {message}
        </p>
      </div>
      {status === 'available' && (
        <div className="mt-2 flex justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={dismissUpdate}>
            {t('pwa.update.later')}
          </Button>
          <Button size="sm" onClick={applyUpdate}>
            {t('pwa.update.reload')}
          </Button>
        </div>
      )}
    </section>
  );
}
