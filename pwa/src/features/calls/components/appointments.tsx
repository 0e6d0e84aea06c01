import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Download, Video } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Appointment, Slot } from '../../../../../api/contract/appointments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { api, errorMessage } from '../../../lib/api-client';
import { appointmentsKey, myAppointmentsQuery, shopAppointmentsQuery } from '../../../lib/appointments-query';
import { requestCall, requestCallBack, useCallState } from '../../../lib/call-store';
import { translateMessage } from '../../../lib/i18n';

/** The viewer's locale for dates: Tamil day and month names in Tamil. */
const useDateLocale = () => (useTranslation().i18n.language === 'ta' ? 'ta-IN' : 'en-IN');

/** A day heading in the viewer's time zone and language ("Monday 6 January"). */
const dayOf = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));
const timeOf = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
const whenOf = (iso: string, locale: string) => `${dayOf(iso, locale)}, ${timeOf(iso, locale)}`;
/** A day chip of the slot picker, in two short lines ("Wed" / "25 Nov"), so two weeks fit a phone's screen. */
const chipOf = (iso: string, locale: string) => ({
  weekday: new Intl.DateTimeFormat(locale, { weekday: 'short' }).format(new Date(iso)),
  date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(new Date(iso)),
});

const calendarHref = (id: number) => `${API_ROUTES.appointmentCalendar.path}?appointmentId=${id}`;

/** The .ics download of one side of an appointment. */
function CalendarLink({ id }: { id: number }) {
  const { t } = useTranslation();
  return (
    <a href={calendarHref(id)} download className={buttonClasses('outline', 'sm')}>
      <Download aria-hidden="true" className="h-4 w-4" />
      {t('calls.appointments.addToCalendar')}
    </a>
  );
}

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

const VARIANT = {
  booked: 'warning',
  completed: 'success',
  expired: 'outline',
  cancelled: 'outline',
} as const;

function useCancel() {
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
function AppointmentText({ a, name }: { a: Appointment; name: string }) {
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

/** The customer's appointments (on "My calls"): cancel, the .ics, and "Start call" at the time. */
export function MyAppointments() {
  const { t } = useTranslation();
  const mine = useQuery(myAppointmentsQuery());
  const busy = useCallState((s) => s.activeCall !== null || s.initiatingSellerId !== null);
  const list = mine.data?.appointments ?? [];
  if (!list.length) return null;
  return (
    <section aria-labelledby="my-appointments-title" className="mb-6 space-y-2" data-testid="my-appointments">
      <h2 id="my-appointments-title" className="text-lg font-semibold text-ink">
        {t('calls.appointments.mine')}
      </h2>
      <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {list.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center gap-3 p-3 text-sm" data-status={a.status}>
            <AppointmentText a={a} name={a.shop.shopName} />
            <Badge variant={VARIANT[a.status]}>{t(`calls.appointments.status.${a.status}`)}</Badge>
            {a.status === 'booked' && (
              <div className="flex flex-wrap gap-2">
                {a.startable && (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() => requestCall(a.shop.sellerId, a.shop.shopName, a.product?.id, a.id)}
                  >
                    <Video aria-hidden="true" className="h-4 w-4" />
                    {t('calls.appointments.startCall')}
                  </Button>
                )}
                <CalendarLink id={a.id} />
                <CancelWithReason a={a} side="customer" />
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Cancels after asking: the jeweller must give the customer a reason; the customer may give one (a mistaken
 * tap must not throw a booking away).
 */
function CancelWithReason({ a, side }: { a: Appointment; side: 'customer' | 'seller' }) {
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

/** The jeweller's upcoming appointments (dashboard): "Start call" at the time, reschedule, cancel with a reason. */
export function ShopAppointmentsCard() {
  const { t } = useTranslation();
  const shop = useQuery(shopAppointmentsQuery());
  const busy = useCallState((s) => s.activeCall !== null);
  const [moving, setMoving] = useState<Appointment | null>(null);
  const upcoming = (shop.data?.appointments ?? []).filter((a) => a.status === 'booked');
  return (
    <section aria-labelledby="shop-appointments-title" data-testid="shop-appointments">
      <Card>
        <CardHeader className="flex flex-row items-center gap-2">
          <CalendarClock aria-hidden="true" className="h-5 w-5 text-brand-700" />
          <CardTitle id="shop-appointments-title" className="text-lg">
            {t('calls.appointments.upcoming')}
          </CardTitle>
          <Badge variant={upcoming.length ? 'warning' : 'outline'}>{upcoming.length}</Badge>
        </CardHeader>
        <CardContent>
          {upcoming.length === 0 ? (
            <p className="text-sm text-muted">{t('calls.appointments.none')}</p>
          ) : (
            <ul className="divide-y divide-stone-200">
              {upcoming.map((a) => (
                <li
                  key={a.id}
                  className="flex flex-wrap items-center gap-3 py-2 text-sm"
                  data-appointment-id={a.id}
                >
                  <AppointmentText a={a} name={a.customer.displayName} />
                  <div className="flex flex-wrap gap-2">
                    {a.startable && (
                      <Button
                        size="sm"
                        disabled={busy}
                        onClick={() => requestCallBack({ appointmentId: a.id }, a.customer.displayName)}
                      >
                        <Video aria-hidden="true" className="h-4 w-4" />
                        {t('calls.appointments.startCall')}
                      </Button>
                    )}
                    <Button size="sm" variant="outline" onClick={() => setMoving(a)}>
                      {t('calls.appointments.reschedule')}
                    </Button>
                    <CancelWithReason a={a} side="seller" />
                    <CalendarLink id={a.id} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {moving && (
        <SlotPickerDialog
          sellerId={moving.shop.sellerId}
          shopName={moving.shop.shopName}
          open
          onOpenChange={(o) => !o && setMoving(null)}
          reschedule={moving}
        />
      )}
    </section>
  );
}
