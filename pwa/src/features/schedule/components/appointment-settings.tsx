import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  APPOINTMENT_LIMITS,
  appointmentSettingsSchema,
  type AppointmentSettings as Settings,
} from '../../../../../api/contract/appointments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { WEEKDAYS, type HoursRange, type Weekday } from '../../../../../api/contract/shop-hours';
import { Button } from '../../../components/ui/button';
import { TimeRangeInputs } from './time-range-inputs';
import { api, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { scheduleQueries } from '../api';

const SLOT_CHOICES = [15, 30, 45, 60, 90, 120] as const;
const BUFFER_CHOICES = [0, 5, 10, 15, 30] as const;

// 2024-01-01 was a Monday: day n of the ISO week is 2024-01-0n.
const dayName = (day: Weekday, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, day)),
  );

const key = [...scheduleQueries.all(), 'appointment-settings'] as const;

/**
 * Video appointments of the shop (issue #22), beside its video hours: how long a slot lasts, the buffer
 * between two appointments, and weekly breaks (no slot touches one). Slots come from the video hours, minus
 * breaks and bookings.
 */
export default function AppointmentSettings() {
  const { data } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.call(API_ROUTES.appointmentSettings, undefined, { signal }),
  });
  return data ? <AppointmentSettingsForm data={data} /> : null;
}

function AppointmentSettingsForm({ data }: { data: Settings }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const id = useId();
  const locale = i18n.language === 'ta' ? 'ta-IN' : 'en-IN';
  const [slot, setSlot] = useState(data.slotMinutes);
  const [buffer, setBuffer] = useState(data.bufferMinutes);
  const [breaks, setBreaks] = useState<HoursRange[]>(data.breaks);
  const [error, setError] = useState<string | null>(null);
  const update = (i: number, patch: Partial<HoursRange>) =>
    setBreaks((b) => b.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = useMutation({
    mutationFn: (input: { slotMinutes: number; bufferMinutes: number; breaks: HoursRange[] }) =>
      api.call(API_ROUTES.appointmentSettingsSave, input),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      setBreaks(answer.breaks);
      toast.success(t('calls.appointments.settings.saved'));
    },
    onError: (err) => setError(translateMessage(errorMessage(err))),
  });
  const onSave = () => {
    const input = { slotMinutes: slot, bufferMinutes: buffer, breaks };
    const parsed = appointmentSettingsSchema.safeParse(input);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setError(null);
    save.mutate(input);
  };
  const select = 'rounded-md border border-stone-300 bg-white px-3 py-2 text-sm';
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg border border-stone-200 p-4"
      data-testid="appointment-settings"
    >
      <h3 id={`${id}-title`} className="flex items-center gap-2 font-medium text-ink">
        <CalendarDays aria-hidden="true" className="h-4 w-4 text-brand-700" />
        {t('calls.appointments.settings.title')}
      </h3>
      <p className="text-sm text-muted">{t('calls.appointments.settings.hint')}</p>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-slot`} className="text-sm font-medium text-ink">
            {t('calls.appointments.settings.slot')}
          </label>
          <select
            id={`${id}-slot`}
            className={select}
            value={slot}
            onChange={(e) => setSlot(Number(e.target.value))}
          >
            {SLOT_CHOICES.map((m) => (
              <option key={m} value={m}>
                {t('calls.appointments.settings.minutes', { n: m })}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-buffer`} className="text-sm font-medium text-ink">
            {t('calls.appointments.settings.buffer')}
          </label>
          <select
            id={`${id}-buffer`}
            className={select}
            value={buffer}
            onChange={(e) => setBuffer(Number(e.target.value))}
          >
            {BUFFER_CHOICES.map((m) => (
              <option key={m} value={m}>
                {t('calls.appointments.settings.minutes', { n: m })}
              </option>
            ))}
          </select>
        </div>
      </div>

      <fieldset className="min-w-0 space-y-2 border-t border-stone-100 pt-3">
        <legend className="font-medium text-ink">{t('calls.appointments.settings.breaks')}</legend>
        <p className="text-sm text-muted">{t('calls.appointments.settings.breaksHint')}</p>
        {breaks.length === 0 && (
          <p className="text-sm text-muted">{t('calls.appointments.settings.noBreaks')}</p>
        )}
        <ul className="space-y-2">
          {breaks.map((b, i) => (
            <li
              key={i}
              className="flex min-w-0 flex-col gap-1.5 sm:flex-row sm:items-center"
              data-testid="break"
            >
              <select
                aria-label={t('calls.appointments.settings.breakDay')}
                className={select}
                value={b.day}
                onChange={(e) => update(i, { day: Number(e.target.value) as Weekday })}
              >
                {WEEKDAYS.map((d) => (
                  <option key={d} value={d}>
                    {dayName(d, locale)}
                  </option>
                ))}
              </select>
              <div className="flex min-w-0 flex-1 items-center gap-1.5">
                <TimeRangeInputs
                  from={b.from}
                  to={b.to}
                  onChange={(change) => update(i, change)}
                  onRemove={() => setBreaks((all) => all.filter((_, j) => j !== i))}
                  removeLabel={t('calls.appointments.settings.removeBreak')}
                />
              </div>
            </li>
          ))}
        </ul>
        {breaks.length < APPOINTMENT_LIMITS.maxBreaks && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => setBreaks((all) => [...all, { day: 1, from: '13:00', to: '14:00' }])}
          >
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t('calls.appointments.settings.addBreak')}
          </Button>
        )}
      </fieldset>
      {error && (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <Button onClick={onSave} loading={save.isPending}>
        {t('calls.appointments.settings.save')}
      </Button>
    </section>
  );
}
