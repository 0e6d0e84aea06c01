import { Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** The header's 'In Call' indicator while a call is active. */
export function InCallIndicator() {
  const { t } = useTranslation();
  return (
    <span
      role="status"
      className="inline-flex items-center gap-1.5 rounded-full bg-green-700 px-2.5 py-1 text-xs font-semibold text-white"
    >
      <span aria-hidden="true" className="relative flex h-2 w-2">
        <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-white opacity-75 motion-reduce:animate-none" />
        <span className="relative inline-flex h-2 w-2 rounded-full bg-white" />
      </span>
      <Video aria-hidden="true" className="h-3.5 w-3.5" />
      {/* On a phone the dot and camera say it; the words stay for screen readers. */}
      <span className="sr-only sm:not-sr-only">{t('header.inCall')}</span>
    </span>
  );
}
