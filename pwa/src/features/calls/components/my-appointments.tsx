import { useQuery } from '@tanstack/react-query';
import { Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { myAppointmentsQuery } from '../../../lib/appointments-query';
import { requestCall, useCallState } from '../../../lib/call-store';
import { AppointmentText, CalendarLink, CancelWithReason, VARIANT } from './appointment-parts';

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
