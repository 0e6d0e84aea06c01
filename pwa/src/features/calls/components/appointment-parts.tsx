import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Appointment } from '../../../../../api/contract/appointments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button, buttonClasses } from '../../../components/ui/button';
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
import { TIME_OF_DAY } from '../../../../../api/contract/time-format';

/*
 * What the appointment screens share (issue #22): dates in the viewer's zone and language, the .ics link, an
 * appointment's text and status badge, and cancelling with a reason. The screens are slot-picker-dialog.tsx
 * (book or reschedule), my-appointments.tsx (the customer's) and shop-appointments-card.tsx (the jeweller's).
 */

/** The viewer's locale for dates: Tamil day and month names in Tamil. */
export const useDateLocale = () => (useTranslation().i18n.language === 'ta' ? 'ta-IN' : 'en-IN');

/** A day heading in the viewer's time zone and language ("Monday 6 January"). */
export const dayOf = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));
export const timeOf = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, TIME_OF_DAY).format(new Date(iso));
export const whenOf = (iso: string, locale: string) => `${dayOf(iso, locale)}, ${timeOf(iso, locale)}`;
/** A day chip of the slot picker, in two short lines ("Wed" / "25 Nov"), so two weeks fit a phone's screen. */
export const chipOf = (iso: string, locale: string) => ({
  weekday: new Intl.DateTimeFormat(locale, { weekday: 'short' }).format(new Date(iso)),
  date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(new Date(iso)),
});

const calendarHref = (id: number) => `${API_ROUTES.appointmentCalendar.path}?appointmentId=${id}`;

/** The .ics download of one side of an appointment. */
export function CalendarLink({ id }: { id: number }) {
  const { t } = useTranslation();
  return (
    <a href={calendarHref(id)} download className={buttonClasses('outline', 'sm')}>
      <Download aria-hidden="true" className="h-4 w-4" />
      {t('calls.appointments.addToCalendar')}
    </a>
  );
}

export const VARIANT = {
  booked: 'warning',
  completed: 'success',
  expired: 'outline',
  cancelled: 'outline',
} as const;

export function useCancel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { appointmentId: number; reason?: string }) => api.call(API_ROUTES.appointmentCancel, v),
    onSuccess: () => {
      toast.success(t('calls.appointments.cancelled'));
      void queryClient.invalidateQueries({ queryKey: appointmentsKey });
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
  });
}

/** One appointment's time, status and reason. */
export function AppointmentText({ a, name }: { a: Appointment; name: string }) {
  const { t } = useTranslation();
  const locale = useDateLocale();
  return (
    <div className="min-w-0 flex-1">
      <p className="font-semibold text-ink">{name}</p>
      <p className="text-ink">{whenOf(a.startsAt, locale)}</p>
      {a.product && <p className="text-muted">{a.product.name}</p>}
      {a.reason && (
        <p className="break-words text-muted">{t('calls.appointments.reasonLine', { reason: a.reason })}</p>
      )}
    </div>
  );
}

/**
 * Cancels after asking: the jeweller must give the customer a reason; the customer may give one (a mistaken
 * tap must not throw a booking away).
 */
export function CancelWithReason({ a, side }: { a: Appointment; side: 'customer' | 'seller' }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const id = useId();
  const cancel = useCancel();
  const seller = side === 'seller';
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        {t('calls.appointments.cancel')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent closeLabel={t('common.close')} data-testid="cancel-appointment">
          <DialogHeader>
            <DialogTitle>{t('calls.appointments.cancelTitle')}</DialogTitle>
            <DialogDescription>
              {seller
                ? t('calls.appointments.cancelHint', { name: a.customer.displayName })
                : t('calls.appointments.customerCancelHint', { name: a.shop.shopName })}
            </DialogDescription>
          </DialogHeader>
          <label htmlFor={id} className="text-sm font-semibold text-ink">
            {t(seller ? 'calls.appointments.reason' : 'calls.appointments.reasonOptional')}
          </label>
          <input
            id={id}
            value={reason}
            maxLength={300}
            required={seller}
            onChange={(e) => setReason(e.target.value)}
            className="w-full rounded-md border border-stone-300 px-3 py-2 text-sm"
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              {t('calls.appointments.keep')}
            </Button>
            <Button
              disabled={seller && !reason.trim()}
              loading={cancel.isPending}
              onClick={() =>
                cancel.mutate(
                  { appointmentId: a.id, ...(reason.trim() ? { reason: reason.trim() } : {}) },
                  { onSuccess: () => setOpen(false) },
                )
              }
            >
              {t(seller ? 'calls.appointments.cancelConfirm' : 'calls.appointments.customerCancelConfirm')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
