import type { webhookDeliveries } from '@music/db';
import { describe, expect, it } from 'vitest';
import { deliveriesFor } from './dispatch';

/** Which events each webhook is sent: its types, its start, and what its owner may read. */

const OWNER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

const hook = (id: string, events: string[], options: Partial<webhookDeliveries.DispatchHook> = {}) => ({
  id,
  user_id: OWNER,
  events,
  from_position: '0',
  admin: false,
  ...options,
});

let position = 0;
const event = (
  type: string,
  options: Partial<webhookDeliveries.DispatchEvent> = {},
): webhookDeliveries.DispatchEvent => {
  position += 1;
  return {
    position: String(position),
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type,
    at: new Date('2026-12-02T10:00:00Z'),
    resource_type: type.split('.')[0]!,
    resource_id: '00000000-0000-4000-8000-0000000000aa',
    data: { id: 'x', full: true },
    audience: 'everyone',
    owner_id: null,
    redacted: null,
    ...options,
  };
};

const sent = (window: webhookDeliveries.DispatchWindow) =>
  deliveriesFor(window).map((d) => [d.webhookId, d.eventType, JSON.parse(d.payload).data]);

describe('deliveriesFor', () => {
  it('sends each hook the types it named (patterns too), after its start only', () => {
    const events = [event('song.created'), event('song.updated'), event('artist.created')];
    const window = {
      position: '0',
      head: '3',
      hooks: [hook('a', ['song.*']), hook('b', ['artist.created', 'song.updated'], { from_position: '1' })],
      events,
    };
    expect(sent(window)).toEqual([
      ['a', 'song.created', { id: 'x', full: true }],
      ['a', 'song.updated', { id: 'x', full: true }],
      ['b', 'song.updated', { id: 'x', full: true }],
      ['b', 'artist.created', { id: 'x', full: true }],
    ]);
    const bodies = deliveriesFor(window).map((d) => JSON.parse(d.payload));
    expect(bodies[0]).toEqual({
      id: events[0]!.id,
      type: 'song.created',
      at: '2026-12-02T10:00:00Z',
      resource: { type: 'song', id: '00000000-0000-4000-8000-0000000000aa' },
      data: { id: 'x', full: true },
    });
  });

  it('sends what the owner may read: user events to admins, private playlists to their owner, the redacted form to others', () => {
    const events = [
      event('user.created', { audience: 'admins' }),
      event('playlist.updated', { audience: 'owner', owner_id: OWNER }),
      event('playlist.updated', { audience: 'owner', owner_id: OTHER }),
      event('playlist.updated', {
        audience: 'owner',
        owner_id: OTHER,
        redacted: { id: 'p', isPublic: false },
      }),
    ];
    const window = {
      position: '0',
      head: '4',
      hooks: [
        hook('owner', ['user.created', 'playlist.*']),
        hook('admin', ['user.created', 'playlist.*'], { user_id: OTHER, admin: true }),
      ],
      events,
    };
    expect(sent(window)).toEqual([
      ['admin', 'user.created', { id: 'x', full: true }],
      ['owner', 'playlist.updated', { id: 'x', full: true }],
      ['admin', 'playlist.updated', { id: 'x', full: true }],
      ['admin', 'playlist.updated', { id: 'x', full: true }],
      ['owner', 'playlist.updated', { id: 'p', isPublic: false }],
      ['admin', 'playlist.updated', { id: 'x', full: true }],
    ]);
  });

  it('a delivery per event and hook, each with an id of its own', () => {
    const window = {
      position: '0',
      head: '2',
      hooks: [hook('a', ['song.*']), hook('b', ['song.*'])],
      events: [event('song.deleted')],
    };
    const ids = deliveriesFor(window).map((d) => d.id);
    expect(new Set(ids).size).toBe(2);
  });
});
