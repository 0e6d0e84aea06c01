import { CircleCheck, Circle, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';

export interface GuideStep {
  id: 'profile' | 'product' | 'storeUrl' | 'video';
  done: boolean;
  to: string;
}

/**
 * The dismissible setup-progress guide: 4 counted steps (profile, first product, store URL, video) plus an
 * engagement step that is never counted.
 */
export function SetupGuide({
  steps,
  storeUrl,
  onDismiss,
}: {
  steps: GuideStep[];
  storeUrl: string;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const done = steps.filter((s) => s.done).length;
  const percent = Math.round((done / steps.length) * 100);
  return (
    <Card aria-labelledby="setup-guide-title" role="region" className="border-gold-400 bg-gold-100/40">
      <CardHeader className="flex flex-row items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="setup-guide-title" className="text-lg font-semibold text-ink">
            {t('seller.guide.title')}
          </h2>
          <p className="text-sm text-muted">{t('seller.guide.progress', { done, total: steps.length })}</p>
        </div>
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('seller.guide.dismiss')}
          className="rounded-md p-1.5 text-muted hover:bg-stone-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </CardHeader>
      <CardContent className="space-y-4">
        <div
          role="progressbar"
          aria-label={t('seller.guide.title')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 w-full overflow-hidden rounded-full bg-stone-200"
        >
          <div className="h-full rounded-full bg-brand-700 transition-all" style={{ width: `${percent}%` }} />
        </div>
        <ol className="space-y-2">
          {steps.map((s) => (
            <li key={s.id} className="flex items-start gap-3">
              {s.done ? (
                <CircleCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
              ) : (
                <Circle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-stone-500" />
              )}
              <div className="min-w-0">
                <Link to={s.to} className="font-medium text-brand-700 underline-offset-4 hover:underline">
                  {t(`seller.guide.steps.${s.id}.title`)}
                </Link>
                <span className="sr-only">
                  {' – '}
                  {s.done ? t('seller.guide.done') : t('seller.guide.todo')}
                </span>
                <p className="text-sm text-muted">{t(`seller.guide.steps.${s.id}.description`)}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="rounded-md bg-white/70 p-3 text-sm text-ink">
          <span className="font-semibold">{t('seller.guide.engagement.title')}</span>{' '}
          {t('seller.guide.engagement.description')}{' '}
          <a href={storeUrl} className="font-medium break-all text-brand-700 underline">
            {new URL(storeUrl, window.location.origin).href}
          </a>
        </p>
      </CardContent>
    </Card>
  );
}
