import { Download, Share, X } from 'lucide-react';
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/ui/button';
import { canPromptInstall, needsIosInstallGuidance, promptInstall, subscribeInstall } from '../install';

const buttonClass = buttonClasses('outline', 'sm') + ' h-9 px-2.5 sm:px-3';

/**
 * 'Install app' in the header: shown when the browser offered installation (beforeinstallprompt), or on
 * iOS Safari outside the installed app, where it opens the 'Share, then Add to Home Screen' guidance.
 */
export function InstallButton() {
  const { t } = useTranslation();
  const offered = useSyncExternalStore(subscribeInstall, canPromptInstall, () => false);
  const [ios] = useState(() => needsIosInstallGuidance());
  const [guideOpen, setGuideOpen] = useState(false);
  const guideId = useId();

  useEffect(() => {
    if (!guideOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setGuideOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [guideOpen]);

  const label = (
    <>
      <Download aria-hidden="true" className="h-4 w-4" />
      <span className="sr-only sm:not-sr-only">{t('pwa.install.button')}</span>
    </>
  );

  if (offered) {
    return (
      <button type="button" className={buttonClass} onClick={() => void promptInstall()}>
        {label}
      </button>
    );
  }
  if (!ios) return null;
  return (
    <div className="relative">
      <button
        type="button"
        className={buttonClass}
        aria-expanded={guideOpen}
        aria-controls={guideId}
        onClick={() => setGuideOpen((o) => !o)}
      >
        {label}
      </button>
      {guideOpen && (
        <div
          id={guideId}
          role="region"
          aria-label={t('pwa.install.iosTitle')}
          className="fixed inset-x-3 top-16 z-50 rounded-lg border border-stone-200 bg-white p-4 shadow-lg sm:absolute sm:inset-x-auto sm:top-11 sm:right-0 sm:w-72"
        >
          <div className="flex items-start gap-3">
            <Share aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
            <div className="flex-1">
              <p className="font-semibold text-ink">{t('pwa.install.iosTitle')}</p>
              <p className="mt-1 text-sm text-muted">{t('pwa.install.ios')}</p>
            </div>
            <button
              type="button"
              className="-m-1 rounded p-1 text-muted hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label={t('common.close')}
              onClick={() => setGuideOpen(false)}
            >
              <X aria-hidden="true" className="h-4 w-4" />
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
