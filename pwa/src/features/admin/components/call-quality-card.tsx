import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { numberLocale } from '../../../lib/format';
import { adminQueries } from '../api';

/** The admin's view of how calls connect: answered, connected, relayed, setup time, reconnects. */
export function CallQualityCard() {
  const { t, i18n } = useTranslation();
  const quality = useQuery(adminQueries.callQuality());
  const number = (value: number, digits = 1) =>
    new Intl.NumberFormat(numberLocale(i18n.language), {
      maximumFractionDigits: digits,
    }).format(value);
  const pct = (v: number | null) =>
    v === null
      ? t('admin.dashboard.callQuality.none')
      : new Intl.NumberFormat(numberLocale(i18n.language), {
          style: 'percent',
          maximumFractionDigits: 1,
        }).format(v / 100);
  const d = quality.data;
  const cells: [string, string | undefined][] = [
    [t('admin.dashboard.callQuality.calls'), d && number(d.calls, 0)],
    [t('admin.dashboard.callQuality.connected'), d && pct(d.connectedPercent)],
    [t('admin.dashboard.callQuality.relayed'), d && pct(d.relayedPercent)],
    [
      t('admin.dashboard.callQuality.setup'),
      d &&
        (d.medianSetupMs === null
          ? t('admin.dashboard.callQuality.none')
          : t('admin.dashboard.callQuality.seconds', { value: number(d.medianSetupMs / 1000, 2) })),
    ],
    [t('admin.dashboard.callQuality.reconnected'), d && pct(d.reconnectPercent)],
  ];
  return (
    <section aria-labelledby="admin-call-quality-title" className="space-y-4">
      <h2 id="admin-call-quality-title" className="text-2xl font-semibold text-ink">
        {t('admin.dashboard.callQuality.title')}
      </h2>
      {quality.isError ? (
        <Card className="p-5 text-ink" role="alert">
          {t('admin.dashboard.callQuality.failed')}
        </Card>
      ) : (
        <Card className="p-5">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
            {cells.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-sm font-medium break-words text-muted">{label}</dt>
                <dd className="text-2xl font-bold text-ink" data-testid="call-quality-value">
                  {value ?? <Skeleton className="mt-1 h-8 w-14" />}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      )}
    </section>
  );
}
