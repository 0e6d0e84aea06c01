import type { Knex } from 'knex';
import { APPOINTMENT_LIMITS } from '../../../contract/appointments';

/**
 * The job table (migration 0017, docs/architecture.md "Scheduled work: the job table"): work due at a time —
 * an appointment's reminder 15 minutes before, its start, its expiry at the end — stored with the change
 * that makes it due, so a restart loses nothing. Every API process polls (`background.every`); a poll claims
 * due rows with `for update skip locked` and, in the same transaction, writes their effect (the in-app
 * notices, the expiry) and marks them done. Two processes never claim one row, and a process that dies
 * before its commit leaves the rows pending for the next poll: each job takes effect exactly once. Push
 * messages go out after the commit (a crash in between loses a push, never the in-app notice).
 */
/** 'notice': a message off the app (issue #37, api/src/features/notices/service.ts), by `notice_id`. */
export const JOB_KINDS = [
  'appointment_reminder',
  'appointment_start',
  'appointment_expire',
  'notice',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATES = ['pending', 'done', 'cancelled'] as const;

/** How often each process looks for due jobs. */
export const JOB_POLL_MS = 5_000;
/** Jobs one transaction claims; a poll keeps claiming until fewer are due. */
export const JOB_BATCH = 500;

const MINUTE = 60_000;

/** An appointment's jobs: the reminder (unless booked within its 15 minutes), the start and the expiry. */
export async function scheduleJobs(
  trx: Knex,
  appointmentId: number,
  startsAt: Date,
  endsAt: Date,
  now: Date,
): Promise<void> {
  const remindAt = new Date(startsAt.getTime() - APPOINTMENT_LIMITS.reminderMinutes * MINUTE);
  const rows: { kind: JobKind; appointment_id: number; run_at: Date; created_at: Date }[] = [
    { kind: 'appointment_start', appointment_id: appointmentId, run_at: startsAt, created_at: now },
    { kind: 'appointment_expire', appointment_id: appointmentId, run_at: endsAt, created_at: now },
  ];
  if (remindAt.getTime() > now.getTime())
    rows.unshift({
      kind: 'appointment_reminder',
      appointment_id: appointmentId,
      run_at: remindAt,
      created_at: now,
    });
  await trx('jobs').insert(rows);
}

/** A cancelled or moved appointment's pending jobs are cancelled (a claimed one has already committed). */
export async function cancelJobs(trx: Knex, appointmentId: number): Promise<void> {
  await trx('jobs').where({ appointment_id: appointmentId, state: 'pending' }).update({ state: 'cancelled' });
}
