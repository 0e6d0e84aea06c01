import { Languages } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage, setPreferredLanguage } from '../../lib/i18n';
import { cn } from '../../lib/cn';
import { useAdoptValueOnMount } from '../../lib/pre-hydration';
import { useCanChooseLanguage, usePreferredLanguage } from './language';

/** English / தமிழ் choice, shown only where the reader may choose (see useCanChooseLanguage). */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t } = useTranslation();
  const id = useId();
  const preferred = usePreferredLanguage();
  const canChoose = useCanChooseLanguage();
  // A language chosen before the app took over is the one it switches to.
  const ref = useAdoptValueOnMount<HTMLSelectElement>(preferred, (lng) => {
    if (isLanguage(lng)) setPreferredLanguage(lng);
  });
  if (!canChoose) return null;
  return (
    <div className={cn('relative flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {t('header.language')}
      </label>
      <Languages aria-hidden="true" className="pointer-events-none absolute left-2 h-4 w-4 text-muted" />
      <select
        ref={ref}
        id={id}
        data-testid="language-switch"
        value={preferred}
        onChange={(e) => {
          if (isLanguage(e.target.value)) setPreferredLanguage(e.target.value);
        }}
        className="h-9 appearance-none rounded-md border border-stone-300 bg-white pr-2 pl-7 text-sm text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`header.languages.${lng}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
