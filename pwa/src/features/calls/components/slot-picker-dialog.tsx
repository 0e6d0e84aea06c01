import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Appointment, Slot } from '../../../../../api/contract/appointments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { api, errorMessage } from '../../../lib/api-client';
import { appointmentsKey } from '../../../lib/appointments-query';
import { translateMessage } from '../../../lib/i18n';
import { CalendarLink, chipOf, dayOf, timeOf, useDateLocale, whenOf } from './appointment-parts';

/**
 * The slot picker (issue #22): the shop's free slots, grouped by day in the viewer's time zone and language;
 * a day, then a time, then "Book". Also the jeweller's reschedule (`reschedule` set: a reason is asked).
 */
export function SlotPickerDialog({
  sellerId,
  shopName,
  productId,
  open,
  onOpenChange,
  reschedule,
}: {
  sellerId: number;
  shopName: string;
  productId?: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  reschedule?: Appointment;
}) {
  const { t } = useTranslation();
  const locale = useDateLocale();
  const queryClient = useQueryClient();
  const reasonId = useId();
  const slots = useQuery({
    queryKey: [...appointmentsKey, 'slots', sellerId] as const,
    queryFn: ({ signal }) => api.call(API_ROUTES.appointmentSlots, { sellerId }, { signal }),
    enabled: open,
    staleTime: 0,
  });
  const [day, setDay] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [reason, setReason] = useState('');
  const [booked, setBooked] = useState<Appointment | null>(null);
  const book = useMutation({
    mutationFn: (slot: Slot) =>
      reschedule
        ? api.call(API_ROUTES.appointmentReschedule, {
            appointmentId: reschedule.id,
            startsAt: slot.startsAt,
            reason,
          })
        : api.call(API_ROUTES.appointmentBook, {
            sellerId,
            startsAt: slot.startsAt,
            ...(productId ? { productId } : {}),
          }),
    onSuccess: (a) => {
      void queryClient.invalidateQueries({ queryKey: appointmentsKey });
      if (reschedule) {
        toast.success(t('calls.appointments.rescheduled'));
        onOpenChange(false);
      } else setBooked(a);
    },
    onError: (err) => {
      toast.error(translateMessage(errorMessage(err)));
      void slots.refetch();
      setChosen(null);
    },
  });
  const byDay = new Map<string, Slot[]>();
  for (const s of slots.data?.slots ?? []) {
    const key = dayOf(s.startsAt, locale);
    byDay.set(key, [...(byDay.get(key) ?? []), s]);
  }
  const days = [...byDay.keys()];
  const shownDay = day && byDay.has(day) ? day : (days[0] ?? null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setBooked(null);
      setChosen(null);
      setDay(null);
      setReason('');
    }
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent closeLabel={t('common.close')} data-testid="slot-picker">
        <DialogHeader>
          <DialogTitle>
            {reschedule ? t('calls.appointments.rescheduleTitle') : t('calls.appointments.bookTitle')}
          </DialogTitle>
          <DialogDescription>
            {reschedule
              ? t('calls.appointments.rescheduleHint', { name: reschedule.customer.displayName })
              : t('calls.appointments.bookHint', { shop: shopName })}
          </DialogDescription>
        </DialogHeader>
        {booked ? (
          <div className="space-y-3" data-testid="appointment-booked">
            <p className="font-semibold text-ink" role="status">
              {t('calls.appointments.booked', { shop: shopName, when: whenOf(booked.startsAt, locale) })}
            </p>
            <CalendarLink id={booked.id} />
          </div>
        ) : slots.isPending ? (
          <p className="text-sm text-muted">{t('common.loading')}</p>
        ) : days.length === 0 ? (
          <p className="text-sm text-muted">{t('calls.appointments.noSlots')}</p>
        ) : (
          <div className="space-y-4">
            <fieldset>
              <legend className="mb-2 text-sm font-semibold text-ink">{t('calls.appointments.day')}</legend>
              <div className="grid grid-cols-3 gap-2 sm:grid-cols-7">
                {days.map((d) => {
                  const chip = chipOf(byDay.get(d)![0].startsAt, locale);
                  return (
                    <Button
                      key={d}
                      size="sm"
                      variant={d === shownDay ? 'primary' : 'outline'}
                      aria-pressed={d === shownDay}
                      className="h-auto min-w-0 flex-col gap-0 px-1 py-1.5 leading-tight"
                      onClick={() => {
                        setDay(d);
                        setChosen(null);
                      }}
                    >
                      <span className="max-w-full truncate text-xs">{chip.weekday}</span>
                      <span className="max-w-full truncate">{chip.date}</span>
                    </Button>
                  );
                })}
              </div>
            </fieldset>
            {shownDay && (
              <fieldset>
                <legend className="mb-2 text-sm font-semibold text-ink">
                  {t('calls.appointments.time')}
                </legend>
                <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
                  {(byDay.get(shownDay) ?? []).map((s) => (
                    <Button
                      key={s.startsAt}
                      size="sm"
                      variant={chosen?.startsAt === s.startsAt ? 'primary' : 'outline'}
                      aria-pressed={chosen?.startsAt === s.startsAt}
                      onClick={() => setChosen(s)}
                    >
                      {timeOf(s.startsAt, locale)}
                    </Button>
                  ))}
                </div>
              </fieldset>
            )}
            {reschedule && (
              <div className="space-y-1">
                <label htmlFor={reasonId} className="text-sm font-semibold text-ink">
                  {t('calls.appointments.reason')}
                </label>
                <input
                  id={reasonId}
                  value={reason}
                  maxLength={300}
                  onChange={(e) => setReason(e.target.value)}
                  className="w-full rounded-md border border-stone-300 px-3 py-2 text-sm"
                />
              </div>
            )}
          </div>
        )}
        {booked ? (
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)}>
              {t('common.close')}
            </Button>
          </DialogFooter>
        ) : (
          <DialogFooter>
            <Button
              disabled={!chosen || (reschedule && !reason.trim())}
              loading={book.isPending}
              onClick={() => chosen && book.mutate(chosen)}
            >
              {chosen
                ? t(reschedule ? 'calls.appointments.moveTo' : 'calls.appointments.bookAt', {
                    when: whenOf(chosen.startsAt, locale),
                  })
                : t('calls.appointments.chooseTime')}
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
