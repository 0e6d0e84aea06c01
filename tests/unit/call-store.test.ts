import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerCallActions, requestCall, type CallActions } from '../../pwa/src/lib/call-store';

describe('a call asked for before the call layer has loaded', () => {
  afterEach(() => registerCallActions(null));

  it('waits for it, and starts with everything it was asked with: the piece and the appointment', () => {
    registerCallActions(null);
    // The customer taps "Video Call" on their appointment before the call layer's chunk has arrived.
    requestCall(7, 'Lakshmi Jewellers', 42, 3);
    const startCall = vi.fn();
    registerCallActions({ startCall } as unknown as CallActions);
    expect(startCall).toHaveBeenCalledExactlyOnceWith(7, 'Lakshmi Jewellers', 42, 3);
    // Started once: registering again starts nothing.
    registerCallActions({ startCall } as unknown as CallActions);
    expect(startCall).toHaveBeenCalledTimes(1);
  });
});
