import * as Switch from '@radix-ui/react-switch';
import { useQuery } from '@tanstack/react-query';
import { Clock, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  AWAY_MESSAGE_MAX,
  WEEKDAYS,
  isTimeZone,
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

const INDIA = 'Asia/Kolkata';

/**
 * The zones offered after India's: the browser's list, as the server accepts them (isTimeZone), alphabetical.
 * The browser may list India under its old name (Asia/Calcutta); it is offered once, as Asia/Kolkata.
 */
const OTHER_ZONES: readonly string[] = (
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
)
  .filter((z) => z !== INDIA && z !== 'Asia/Calcutta' && isTimeZone(z))
  .sort();

/** A day's video hours as the seller picks them: open all day, closed, or the ranges they set. */
type DayMode = 'hours' | 'allDay' | 'closed';

const ALL_DAY = { from: '00:00', to: '24:00' } as const;

function dayModeOf(ranges: readonly HoursRange[]): DayMode {
  if (ranges.length === 0) return 'closed';
  if (ranges.length === 1 && ranges[0].from === ALL_DAY.from && ranges[0].to === ALL_DAY.to) return 'allDay';
  return 'hours';
}

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
  /** Open all day, closed, or (from either) one range to change: the day's ranges are replaced. */
  const setDayMode = (day: Weekday, mode: DayMode) =>
    setHours((h) => [
      ...h.filter((r) => r.day !== day),
      ...(mode === 'allDay'
        ? [{ day, ...ALL_DAY }]
        : mode === 'hours'
          ? [{ day, from: '10:00', to: '19:00' }]
          : []),
    ]);
  // A zone saved before the list (or one this browser does not list) stays chosen.
  const zones =
    timeZone === INDIA || OTHER_ZONES.includes(timeZone) ? OTHER_ZONES : [timeZone, ...OTHER_ZONES];

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
        <select
          id={`${id}-tz`}
          value={timeZone}
          onChange={(e) => setTimeZone(e.target.value)}
          className="block h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-3 text-base text-ink focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40"
        >
          <option value={INDIA}>{t('sellerPhone.hours.india', { zone: INDIA })}</option>
          <optgroup label={t('sellerPhone.hours.otherZones')}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, ' ')}
              </option>
            ))}
          </optgroup>
        </select>
      </div>

      <ul className="space-y-3">
        {WEEKDAYS.map((day) => {
          const ranges = hours.map((r, i) => [r, i] as const).filter(([r]) => r.day === day);
          const mode = dayModeOf(ranges.map(([r]) => r));
          const name = dayName(day, locale);
          return (
            <li key={day} className="space-y-2 border-t border-stone-100 pt-2" data-testid="hours-day">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <label htmlFor={`${id}-day-${day}`} className="font-medium text-ink">
                  <span className="sr-only">{t('sellerPhone.hours.dayMode', { day: name })}</span>
                  <span aria-hidden="true">{name}</span>
                </label>
                <div className="flex min-w-0 items-center gap-1">
                  <select
                    id={`${id}-day-${day}`}
                    value={mode}
                    onChange={(e) => setDayMode(day, e.target.value as DayMode)}
                    className="h-10 min-w-0 rounded-md border border-stone-300 bg-white px-2 text-sm text-ink focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40"
                  >
                    <option value="allDay">{t('sellerPhone.hours.allDay')}</option>
                    <option value="hours">{t('sellerPhone.hours.setHours')}</option>
                    <option value="closed">{t('sellerPhone.hours.closed')}</option>
                  </select>
                  {mode === 'hours' && (
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      onClick={() => setHours((h) => [...h, { day, from: '10:00', to: '19:00' }])}
                      aria-label={t('calls.schedule.hours.addRange', { day: name })}
                    >
                      <Plus aria-hidden="true" className="h-4 w-4" />
                    </Button>
                  )}
                </div>
              </div>
              {mode === 'hours' &&
                ranges.map(([r, i]) => (
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
