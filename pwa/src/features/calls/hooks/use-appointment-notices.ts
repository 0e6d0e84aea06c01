import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { AppointmentEvent } from '../../../../../api/contract/events';
import { TIME_OF_DAY } from '../../../../../api/contract/time-format';
import { appointmentsKey } from '../../../lib/appointments-query';
import { useStreamEvent } from '../../../lib/event-stream';

/** An appointment booked, reminded, starting, moved or cancelled (issue #22): told at once, lists refreshed. */
export function useAppointmentNotices(isSeller: boolean) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  useStreamEvent(
    'appointment',
    useCallback(
      (e: AppointmentEvent) => {
        void queryClient.invalidateQueries({ queryKey: appointmentsKey });
        if (e.notice === 'booked' && !isSeller) return;
        const when = new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
          weekday: 'short',
          ...TIME_OF_DAY,
        }).format(new Date(e.startsAt));
        const text = t(`calls.appointments.notice.${e.notice}`, { name: e.otherName, time: when });
        const full = e.reason ? `${text} ${t('calls.appointments.reasonLine', { reason: e.reason })}` : text;
        if (e.notice === 'cancelled') toast.error(full, { duration: 15_000 });
        else toast.info(full, { duration: 15_000 });
      },
      [queryClient, t, i18n.language, isSeller],
    ),
  );
}
