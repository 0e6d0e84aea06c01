import { describe, expect, it } from 'vitest';
import {
  capitalise,
  clientStateOf,
  formatCallDuration,
  formatSeconds,
  isAlreadyResponded,
} from '../../pwa/src/features/calls/lib/call-state';

describe('call client state (docs/product-rules.md §4)', () => {
  it('maps server statuses onto the client state table', () => {
    expect(clientStateOf(null)).toBe('inactive');
    expect(clientStateOf({ status: 'pending' })).toBe('connecting');
    expect(clientStateOf({ status: 'ringing' })).toBe('connecting');
    expect(clientStateOf({ status: 'active' })).toBe('connected');
    for (const s of ['declined', 'ended', 'missed'] as const)
      expect(clientStateOf({ status: s })).toBe('failed');
  });

  it('formats durations as mm:ss, 00:00 without an end or for a non-positive span', () => {
    expect(formatCallDuration('2026-01-01T10:00:00Z', '2026-01-01T10:01:05Z')).toBe('01:05');
    expect(formatCallDuration('2026-01-01T10:00:00Z', null)).toBe('00:00');
    expect(formatCallDuration('2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z')).toBe('00:00');
    expect(formatCallDuration('2026-01-01T10:00:10Z', '2026-01-01T10:00:00Z')).toBe('00:00');
    expect(formatSeconds(3600 + 59)).toBe('60:59');
  });

  it('capitalises unknown statuses and spots already-answered calls', () => {
    expect(capitalise('active')).toBe('Active');
    expect(isAlreadyResponded('This call has already been responded to.')).toBe(true);
    expect(isAlreadyResponded('Call not found.')).toBe(false);
  });
});
