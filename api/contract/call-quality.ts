import { z } from 'zod';

/**
 * How a connected call's media travelled, from the selected ICE pair: `direct` (host or peer-reflexive
 * addresses on both ends), `srflx` (through a NAT's public address found by STUN) or `relay` (through our
 * TURN relay on either end).
 */
export const CALL_ROUTES = ['direct', 'srflx', 'relay'] as const;
export type CallRoute = (typeof CALL_ROUTES)[number];

/** How long after a call ended its participants may still send their final report (a page unload). */
export const CALL_QUALITY_LATE_REPORT_MS = 10 * 60_000;
/** The admin summary covers this many days. */
export const CALL_QUALITY_DAYS = 7;

export const CALL_QUALITY_MESSAGES = {
  invalidReport: 'The call quality report is not valid.',
  callNotFound: 'Call not found.',
  callNotReportable: 'This call takes no quality reports.',
} as const;

/** A whole number in [0, max], with a message that names the field. */
const count = (field: string, max: number) => {
  const error = `${field} must be a whole number from 0 to ${max}.`;
  return z.number({ error }).int({ error }).min(0, { error }).max(max, { error });
};
const nullableCount = (field: string, max: number) => count(field, max).nullable().default(null);

/**
 * POST /_api/call/quality: one participant's record of what their side of the call went through, sent while
 * the call runs and once more when it ends; each report replaces that participant's previous one.
 */
export const callQualityReportSchema = z.strictObject(
  {
    callId: z
      .number({ error: 'callId must be a positive integer.' })
      .int({ error: 'callId must be a positive integer.' })
      .positive({ error: 'callId must be a positive integer.' })
      .max(2_147_483_647, { error: 'callId must be a positive integer.' }),
    /** Media flowed at some point. */
    connected: z.boolean({ error: 'connected must be true or false.' }),
    route: z
      .enum(CALL_ROUTES, { error: "route must be 'direct', 'srflx' or 'relay'." })
      .nullable()
      .default(null),
    /** From the accept to the first connected ICE pair. */
    setupMs: nullableCount('setupMs', 600_000),
    /** Median round trip of the selected pair while connected. */
    rttMs: nullableCount('rttMs', 60_000),
    /** Packets lost of all expected, inbound, in percent. */
    lossPercent: z
      .number({ error: 'lossPercent must be a number from 0 to 100.' })
      .min(0, { error: 'lossPercent must be a number from 0 to 100.' })
      .max(100, { error: 'lossPercent must be a number from 0 to 100.' })
      .nullable()
      .default(null),
    /** Median inbound bitrate, audio and video together. */
    bitrateKbps: nullableCount('bitrateKbps', 1_000_000),
    /** Video freezes the receiver counted. */
    freezes: count('freezes', 100_000).default(0),
    /** Times the connection dropped and came back (ICE restarts included). */
    reconnects: count('reconnects', 10_000).default(0),
  },
  { error: CALL_QUALITY_MESSAGES.invalidReport },
);
export type CallQualityReport = z.infer<typeof callQualityReportSchema>;
export type CallQualityReportInput = z.input<typeof callQualityReportSchema>;

/** GET /_api/admin/call-quality: the last CALL_QUALITY_DAYS days of answered calls. */
export interface AdminCallQualityResponse {
  days: number;
  /** Calls answered in the period. */
  calls: number;
  /** Of those, the share whose media flowed (0–100, one decimal), or null without calls. */
  connectedPercent: number | null;
  /** Of the connected, the share that went through the relay. */
  relayedPercent: number | null;
  /** Median time from accept to connected, of the connected. */
  medianSetupMs: number | null;
  /** Of the connected, the share that dropped and came back at least once. */
  reconnectPercent: number | null;
}
