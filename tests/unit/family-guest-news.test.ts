import { describe, expect, it } from 'vitest';
import type { FamilyGuestEvent, FamilyGuestStateResponse } from '../../api/contract/call-family';
import type { CallItem, FamilyLike } from '../../api/contract/call-selling';
import { withEvent, withNews } from '../../pwa/src/features/calls/family/guest-session';

const message = (id: number): CallItem =>
  ({ id, kind: 'message', text: `m${id}`, fromUserId: 1, createdAt: '' }) as unknown as CallItem;
const like = (id: number): FamilyLike =>
  ({
    id,
    guestId: 1,
    guestName: 'Amma',
    productId: 1,
    productName: 'Jhumka',
    kind: 'like',
    createdAt: '',
  }) as FamilyLike;
const poll = (over: Partial<FamilyGuestStateResponse>): FamilyGuestStateResponse => ({
  callId: 1,
  me: 'g1',
  state: 'admitted',
  callLive: true,
  shopName: 'Lakshmi Jewellers',
  productName: null,
  piece: null,
  members: [],
  items: [],
  likes: [],
  signals: [],
  ...over,
});

describe('a guest’s page keeps what it has and adds what each poll brings (§21.5)', () => {
  it('adds the new items and likes after those kept, and takes the members as they are now', () => {
    const first = withNews(null, poll({ items: [message(1)], likes: [like(1)] }));
    const idle = withNews(first, poll({}));
    expect(idle.items.map((i) => i.id)).toEqual([1]);
    expect(idle.likes.map((l) => l.id)).toEqual([1]);
    const next = withNews(
      idle,
      poll({ items: [message(2)], members: [{ party: 'u2', name: 'Kavya', role: 'customer' }] }),
    );
    expect(next.items.map((i) => i.id)).toEqual([1, 2]);
    expect(next.likes.map((l) => l.id)).toEqual([1]);
    expect(next.members.map((m) => m.name)).toEqual(['Kavya']);
  });

  it('keeps nothing once the guest’s part or the call is over', () => {
    const inCall = withNews(null, poll({ items: [message(1)], likes: [like(1)] }));
    expect(withNews(inCall, poll({ state: 'removed' })).items).toEqual([]);
    expect(withNews(inCall, poll({ callLive: false })).likes).toEqual([]);
  });
});

const event = (over: Partial<FamilyGuestEvent>): FamilyGuestEvent => ({
  callId: 1,
  me: 'g1',
  state: 'admitted',
  callLive: true,
  members: [],
  lastItem: 0,
  lastLike: 0,
  ...over,
});

describe('a guest’s page takes its stream’s events and never goes back to older news (§21.2)', () => {
  it('takes the admission and who is in from an event, keeping what was shown', () => {
    const waiting = withNews(null, poll({ state: 'asked' }));
    const members = [{ party: 'u2' as const, name: 'Kavya', role: 'customer' as const }];
    const admitted = withEvent(waiting, event({ members }))!;
    expect([admitted.state, admitted.members]).toEqual(['admitted', members]);
    const withItems = withNews(admitted, poll({ items: [message(1)], members }));
    expect(withEvent(withItems, event({ members, lastItem: 1 }))!.items.map((i) => i.id)).toEqual([1]);
    // Removed: nothing kept.
    const removed = withEvent(withItems, event({ state: 'removed' }))!;
    expect([removed.state, removed.items, removed.members]).toEqual(['removed', [], []]);
  });

  it('does not take a read older than an event already had (a poll sent before the admission)', () => {
    const admitted = withEvent(withNews(null, poll({ state: 'asked' })), event({}))!;
    expect(withNews(admitted, poll({ state: 'asked' }))).toBe(admitted);
    const over = withEvent(admitted, event({ callLive: false }))!;
    expect(withNews(over, poll({}))).toBe(over);
    expect(withEvent(over, event({}))).toBe(over);
    // Before any read, an event has nothing to add to (the read it starts brings the call).
    expect(withEvent(null, event({}))).toBeNull();
  });
});
