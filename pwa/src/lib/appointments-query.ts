import { queryOptions } from '@tanstack/react-query';
import { API_ROUTES } from '../../../api/contract/routes';
import { api } from './api-client';

/**
 * Booked video appointments (issue #22), read by the call provider (a customer with a booked appointment
 * listens for the shop's call) and by the appointment screens. Here because features do not import each other.
 */
export const appointmentsKey = ['appointments'] as const;

/** The customer's appointments. */
export const myAppointmentsQuery = () =>
  queryOptions({
    queryKey: [...appointmentsKey, 'mine'] as const,
    queryFn: ({ signal }) => api.call(API_ROUTES.appointmentsMine, undefined, { signal }),
    refetchInterval: 60_000,
    meta: { silentErrors: true },
  });

/** The jeweller's appointments. */
export const shopAppointmentsQuery = () =>
  queryOptions({
    queryKey: [...appointmentsKey, 'shop'] as const,
    queryFn: ({ signal }) => api.call(API_ROUTES.sellerAppointments, undefined, { signal }),
    refetchInterval: 60_000,
  });
