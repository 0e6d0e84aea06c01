import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isCallActive,
  onQueuedCallLost,
  QUEUED_CALL_LIMIT_MS,
  registerCallActions,
  requestCall,
  subscribeCall,
  type CallActions,
} from '../../pwa/src/lib/call-store';

describe('a call asked for before the call layer has loaded', () => {
  afterEach(() => {
    registerCallActions(null);
    vi.useRealTimers();
  });

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

  it('is under way from the tap (its button shows calling), and is given up, said, when the layer never comes', () => {
    vi.useFakeTimers();
    registerCallActions(null);
    const woken = vi.fn();
    const stop = subscribeCall(woken);
    const lost = vi.fn();
    const unlisten = onQueuedCallLost(lost);
    requestCall(7, 'Lakshmi Jewellers');
    // The readers (the button) are woken at once, and the call counts as under way.
    expect(woken).toHaveBeenCalled();
    expect(isCallActive()).toBe(true);
    vi.advanceTimersByTime(QUEUED_CALL_LIMIT_MS - 1);
    expect(lost).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(lost).toHaveBeenCalledTimes(1);
    expect(isCallActive()).toBe(false);
    // Nothing is left to start later.
    const startCall = vi.fn();
    registerCallActions({ startCall } as unknown as CallActions);
    expect(startCall).not.toHaveBeenCalled();
    stop();
    unlisten();
  });
});
