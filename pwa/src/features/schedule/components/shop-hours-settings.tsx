import * as Switch from '@radix-ui/react-switch';
import { useQuery } from '@tanstack/react-query';
import { Clock, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  AWAY_MESSAGE_MAX,
  WEEKDAYS,
  shopHoursSchema,
  type HoursRange,
  type ShopHoursResponse,
  type Weekday,
} from '../../../../../api/contract/shop-hours';
import { CallStateBadge } from '../../../components/call-state-badge';
import { Button } from '../../../components/ui/button';
import { TimeRangeInputs } from './time-range-inputs';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { scheduleQueries, useSaveShopHours } from '../api';

// 2024-01-01 was a Monday: day n of the ISO week is 2024-01-0n.
const dayName = (day: Weekday, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, day)),
  );

const ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Kolkata'];

/**
 * The shop's weekly video hours, time zone and away switch (issue #22), in the seller's #video-settings.
 * Several ranges a day; a range whose end is at or before its start runs past midnight.
 */
export default function ShopHoursSettings() {
  const { data } = useQuery(scheduleQueries.hours());
  return data ? <ShopHoursForm data={data} /> : null;
}

function ShopHoursForm({ data }: { data: ShopHoursResponse }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const save = useSaveShopHours();
  const [hours, setHours] = useState<HoursRange[]>(data.hours);
  const [timeZone, setTimeZone] = useState(data.timeZone);
  const [away, setAway] = useState(data.away);
  const [awayMessage, setAwayMessage] = useState(data.awayMessage ?? '');
  const [error, setError] = useState<string | null>(null);
  const locale = i18n.language === 'ta' ? 'ta-IN' : 'en-IN';
  const update = (i: number, patch: Partial<HoursRange>) =>
    setHours((h) => h.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const onSave = () => {
    const input = { timeZone, hours, away, awayMessage: awayMessage.trim() || null };
    const parsed = shopHoursSchema.safeParse(input);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setError(null);
    save.mutate(input, {
      onSuccess: () => toast.success(t('calls.schedule.hours.saved')),
      onError: (err) => setError(translateMessage(errorMessage(err))),
    });
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-lg border border-stone-200 p-4"
      data-testid="shop-hours"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="flex items-center gap-2 font-medium text-ink">
          <Clock aria-hidden="true" className="h-4 w-4 text-brand-700" />
          {t('calls.schedule.hours.title')}
        </h3>
        <CallStateBadge state={data.callState} />
      </div>
      <p className="text-sm text-muted">{t('calls.schedule.hours.hint')}</p>

      <div className="flex items-center justify-between gap-4">
        <label htmlFor={`${id}-away`} className="font-medium text-ink">
          {t('calls.schedule.hours.away')}
        </label>
        <Switch.Root
          id={`${id}-away`}
          checked={away}
          onCheckedChange={setAway}
          className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-stone-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=checked]:bg-brand-700"
        >
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
      </div>
      {away && (
        <div className="space-y-1">
          <label htmlFor={`${id}-msg`} className="text-sm font-medium text-ink">
            {t('calls.schedule.hours.awayMessage')}
          </label>
          <Input
            id={`${id}-msg`}
            value={awayMessage}
            maxLength={AWAY_MESSAGE_MAX}
            onChange={(e) => setAwayMessage(e.target.value)}
          />
        </div>
      )}

      <div className="space-y-1">
        <label htmlFor={`${id}-tz`} className="text-sm font-medium text-ink">
          {t('calls.schedule.hours.timeZone')}
        </label>
        <Input
          id={`${id}-tz`}
          list={`${id}-zones`}
          value={timeZone}
          onChange={(e) => setTimeZone(e.target.value)}
        />
        <datalist id={`${id}-zones`}>
          {ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </div>

      <ul className="space-y-3">
        {WEEKDAYS.map((day) => {
          const ranges = hours.map((r, i) => [r, i] as const).filter(([r]) => r.day === day);
          return (
            <li key={day} className="space-y-2 border-t border-stone-100 pt-2">
              <div className="flex items-center justify-between">
                <span className="font-medium text-ink">{dayName(day, locale)}</span>
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  onClick={() => setHours((h) => [...h, { day, from: '10:00', to: '19:00' }])}
                  aria-label={t('calls.schedule.hours.addRange', { day: dayName(day, locale) })}
                >
                  <Plus aria-hidden="true" className="h-4 w-4" />
                </Button>
              </div>
              {ranges.length === 0 && (
                <p className="text-sm text-muted">{t('calls.schedule.hours.closedDay')}</p>
              )}
              {ranges.map(([r, i]) => (
                <div key={i} className="flex min-w-0 items-center gap-1.5">
                  <TimeRangeInputs
                    from={r.from}
                    to={r.to}
                    onChange={(change) => update(i, change)}
                    onRemove={() => setHours((h) => h.filter((_, j) => j !== i))}
                    removeLabel={t('calls.schedule.hours.removeRange')}
                  />
                </div>
              ))}
            </li>
          );
        })}
      </ul>
      {error && (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <Button type="button" onClick={onSave} loading={save.isPending}>
        {t('calls.schedule.hours.save')}
      </Button>
    </section>
  );
}
