import { useQuery } from '@tanstack/react-query';
import { CalendarClock, Video } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Appointment } from '../../../../../api/contract/appointments';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { shopAppointmentsQuery } from '../../../lib/appointments-query';
import { requestCallBack, useCallState } from '../../../lib/call-store';
import { AppointmentText, CalendarLink, CancelWithReason } from './appointment-parts';
import { SlotPickerDialog } from './slot-picker-dialog';

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
