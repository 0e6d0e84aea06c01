import type { AppointmentNotice } from '../../../contract/appointments';
import type { AppDeps } from '../../http/context';
import { pushAppointmentNotices } from '../push/service';
import { appointmentsWithNames, noticeFor, writeNotices, type AppointmentRow } from './appointments';
import { metrics } from '../../http/metrics';
import { JOB_BATCH, type JobKind } from './jobs';
import {
  claimNotices,
  queueNotice,
  recoverNotices,
  sendNotices,
  type OutgoingNotice,
} from '../notices/service';

/** Pushes in flight at once after a batch. */
const PUSH_CONCURRENCY = 64;

interface JobRow {
  id: string | number;
  kind: JobKind;
  appointment_id: number | null;
  run_at: Date | string;
  notice_id: string | number | null;
}

type Notice = { userId: number; notice: AppointmentNotice };

/**
 * Claims and runs one batch of due jobs (at most `limit`); returns how many were claimed. The pushes of the
 * batch are sent (and awaited) after its commit.
 */
export async function runDueJobs(
  deps: Pick<AppDeps, 'db' | 'clock' | 'logger' | 'config' | 'dbKind' | 'pushAgent' | 'sms'>,
  limit = JOB_BATCH,
  lag?: { seconds: number },
): Promise<number> {
  const now = deps.clock.now();
  const notices: Notice[] = [];
  let messages: OutgoingNotice[] = [];
  const claimed = await deps.db.transaction(async (trx) => {
    const jobs = (
      (await trx.raw(
        `select id, kind, appointment_id, notice_id, run_at from jobs
          where state = 'pending' and run_at <= ?
          order by run_at, id limit ? for update skip locked`,
        [now, limit],
      )) as { rows: JobRow[] }
    ).rows;
    if (!jobs.length) return 0;
    // The oldest claimed job (they come in run_at order) waited this long past its time.
    if (lag) lag.seconds = Math.max(lag.seconds, (now.getTime() - new Date(jobs[0].run_at).getTime()) / 1000);
    // Messages off the app (issue #37): decided here, sent after the commit.
    messages = await claimNotices(
      trx,
      deps,
      jobs.flatMap((j) => (j.kind === 'notice' && j.notice_id !== null ? [j.notice_id] : [])),
      now,
    );
    const ids = [...new Set(jobs.flatMap((j) => (j.appointment_id === null ? [] : [j.appointment_id])))];
    const appointments = new Map(
      ((await appointmentsWithNames(trx).whereIn('a.id', ids)) as AppointmentRow[]).map((a) => [a.id, a]),
    );
    const expire: number[] = [];
    for (const job of jobs) {
      const a = job.appointment_id === null ? undefined : appointments.get(job.appointment_id);
      // A cancelled or finished appointment has nothing left to say (its jobs are normally cancelled too).
      if (!a || a.status !== 'booked') continue;
      if (job.kind === 'appointment_expire') {
        expire.push(a.id);
        continue;
      }
      const kind = job.kind === 'appointment_reminder' ? 'reminder' : 'starting';
      // The customer's reminder by SMS too, when they opted in (issue #37); it goes out with the next poll.
      if (kind === 'reminder')
        await queueNotice(
          trx,
          {
            userId: a.customer_id,
            kind: 'appointment_reminder',
            subject: `appointment:${a.id}`,
            params: { shop: a.shop_name },
          },
          now,
        );
      for (const userId of [a.customer_id, a.seller_id])
        notices.push({ userId, notice: noticeFor(a, userId, kind) });
    }
    // In chunks: a statement's bind parameters are limited.
    for (let i = 0; i < notices.length; i += 1000) await writeNotices(trx, notices.slice(i, i + 1000), now);
    if (expire.length) {
      // Completed when one of its calls was answered; expired otherwise.
      await trx('appointments')
        .whereIn('id', expire)
        .where('status', 'booked')
        .update({
          status: trx.raw(
            `case when exists (select 1 from calls c where c.appointment_id = appointments.id
                                and c.answered_at is not null) then 'completed' else 'expired' end`,
          ),
          closed_at: now,
          updated_at: now,
        });
    }
    await trx('jobs')
      .whereIn(
        'id',
        jobs.map((j) => j.id),
      )
      .update({ state: 'done', done_at: now, attempts: trx.raw('attempts + 1') });
    return jobs.length;
  });
  await sendNotices(deps, messages);
  // One query for the batch's subscriptions, then the pushes (no database connection held while they go).
  await pushAppointmentNotices(deps as AppDeps, notices, PUSH_CONCURRENCY).catch((err: unknown) =>
    deps.logger.warn({ err }, 'push of appointment notices failed'),
  );
  return claimed;
}

/** Runs batches until fewer than a batch are due (one poll of the background task). */
export async function drainDueJobs(
  deps: Parameters<typeof runDueJobs>[0],
  limit = JOB_BATCH,
): Promise<number> {
  // Notices a stopped process (or an unanswered send) left `sending`: settled first, sent again as jobs.
  await recoverNotices(deps).catch((err: unknown) =>
    deps.logger.warn({ err }, 'recovering notices left sending failed'),
  );
  let total = 0;
  const lag = { seconds: 0 };
  for (;;) {
    const n = await runDueJobs(deps, limit, lag);
    total += n;
    if (n < limit) break;
  }
  metrics.jobQueueLag.set(lag.seconds);
  return total;
}
