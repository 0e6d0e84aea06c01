import type { CallStatus } from '../../../../../api/contract/constants';

export type { ActiveCall, ClientCallState, IncomingCallRecord } from '../../../lib/call-store';
import type { ActiveCall, ClientCallState } from '../../../lib/call-store';

export const TERMINAL_STATUSES: readonly CallStatus[] = ['declined', 'ended', 'missed'];

export function isTerminalStatus(status: CallStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** Spec §4: pending/ringing → connecting, active → connected, terminated → failed, none → inactive. */
export function clientStateOf(call: Pick<ActiveCall, 'status'> | null): ClientCallState {
  if (!call) return 'inactive';
  switch (call.status) {
    case 'pending':
    case 'ringing':
      return 'connecting';
    case 'active':
      return 'connected';
    default:
      return 'failed';
  }
}

/** mm:ss between answer (or start) and end; 00:00 without an end or for a non-positive span (docs/product-rules.md §4). */
export function formatCallDuration(start: string | null | undefined, end: string | null | undefined): string {
  if (!start || !end) return '00:00';
  const ms = Date.parse(end) - Date.parse(start);
  if (!Number.isFinite(ms) || ms <= 0) return '00:00';
  return formatSeconds(Math.floor(ms / 1000));
}

/** mm:ss of a number of seconds (minutes grow past 59 rather than wrapping). */
export function formatSeconds(total: number): string {
  if (!Number.isFinite(total) || total <= 0) return '00:00';
  const s = Math.floor(total);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** History statuses with their own label; any other value is shown capitalised (docs/product-rules.md §4). */
export const HISTORY_STATUS_KEYS = ['pending', 'ended', 'missed', 'declined'] as const;

export function capitalise(value: string): string {
  return value ? value.charAt(0).toUpperCase() + value.slice(1) : value;
}

/** The server says the call was already answered: clear the modal quietly (docs/product-rules.md §8). */
export function isAlreadyResponded(message: string): boolean {
  return message.includes('already been responded to');
}
