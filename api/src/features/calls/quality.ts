import type { Knex } from 'knex';
import {
  CALL_QUALITY_DAYS,
  CALL_QUALITY_LATE_REPORT_MS,
  CALL_QUALITY_MESSAGES,
  type AdminCallQualityResponse,
  type CallQualityReport,
} from '../../../contract/call-quality';
import { conflict, notFound } from '../../http/errors';
import { metrics } from '../../http/metrics';

/**
 * Stores one participant's quality record of a call, replacing their earlier one. Only the two participants
 * of an answered call report, while it runs and for a few minutes after it ended (the last report goes out as
 * the page closes); anyone else learns nothing, not even that the call exists.
 */
export async function recordCallQuality(
  db: Knex,
  userId: number,
  report: CallQualityReport,
  now: Date,
): Promise<void> {
  const call = (await db('calls')
    .where('id', report.callId)
    .where((w) => w.where('caller_id', userId).orWhere('seller_id', userId))
    .first('status', 'answered_at', 'ended_at')) as
    { status: string; answered_at: Date | null; ended_at: Date | null } | undefined;
  if (!call) throw notFound(CALL_QUALITY_MESSAGES.callNotFound, 'call_not_found');
  const late =
    call.ended_at && now.getTime() - new Date(call.ended_at).getTime() > CALL_QUALITY_LATE_REPORT_MS;
  if (!call.answered_at || (call.status !== 'active' && (call.status !== 'ended' || late))) {
    throw conflict(CALL_QUALITY_MESSAGES.callNotReportable, 'call_not_reportable');
  }
  const row = {
    call_id: report.callId,
    user_id: userId,
    connected: report.connected,
    route: report.connected ? report.route : null,
    setup_ms: report.setupMs,
    rtt_ms: report.rttMs,
    loss_percent: report.lossPercent,
    bitrate_kbps: report.bitrateKbps,
    freezes: report.freezes,
    reconnects: report.reconnects,
    updated_at: now,
  };
  const before = (await db('call_quality')
    .where({ call_id: report.callId, user_id: userId })
    .first('route')) as { route: string | null } | undefined;
  await db('call_quality').insert(row).onConflict(['call_id', 'user_id']).merge();
  // Each participant's path is counted once (a later report that only repeats it is not counted again).
  if (row.route && row.route !== before?.route)
    metrics.callPaths.inc({ path: row.route === 'relay' ? 'relayed' : 'direct' });
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/**
 * The last CALL_QUALITY_DAYS days of answered calls, for the admin: a call counts as connected when either
 * side's media flowed, as relayed when either side went through the relay, as reconnected when either side
 * dropped and came back; its setup time is the slower side's.
 */
export async function callQualitySummary(db: Knex, now: Date): Promise<AdminCallQualityResponse> {
  const since = new Date(now.getTime() - CALL_QUALITY_DAYS * 86_400_000);
  const row = (
    await db.raw<{ rows: Record<string, string | number | null>[] }>(
      `with per_call as (
         select c.id,
                coalesce(bool_or(q.connected), false) as connected,
                coalesce(bool_or(q.route = 'relay'), false) as relayed,
                coalesce(bool_or(q.reconnects > 0), false) as reconnected,
                max(q.setup_ms) filter (where q.connected) as setup_ms
           from calls c
           left join call_quality q on q.call_id = c.id
          where c.answered_at >= ?
          group by c.id
       )
       select count(*) as calls,
              count(*) filter (where connected) as connected,
              count(*) filter (where connected and relayed) as relayed,
              count(*) filter (where connected and reconnected) as reconnected,
              percentile_cont(0.5) within group (order by setup_ms) filter (where connected) as median_setup_ms
         from per_call`,
      [since],
    )
  ).rows[0];
  const calls = Number(row.calls);
  const connected = Number(row.connected);
  return {
    days: CALL_QUALITY_DAYS,
    calls,
    connectedPercent: percent(connected, calls),
    relayedPercent: percent(Number(row.relayed), connected),
    medianSetupMs: row.median_setup_ms === null ? null : Math.round(Number(row.median_setup_ms)),
    reconnectPercent: percent(Number(row.reconnected), connected),
  };
}
