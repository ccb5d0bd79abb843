import { describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { fake, startFakeApi } from '../../test/fake-api';
import { hooks } from '../../test/fake-webhooks';
import {
  answerWords,
  canSendAgain,
  choiceOf,
  type Delivery,
  type EventChoice,
  eventLines,
  eventsOf,
  MAX_WEBHOOKS,
  NO_EVENTS,
  outcome,
  pollInterval,
  readWebhookForm,
  resourcesFor,
  webhookRefusal,
  webhookState,
} from './webhooks';

startFakeApi();

const choice = (changes: Partial<EventChoice>): EventChoice => ({ ...NO_EVENTS, ...changes });

const DELIVERY: Delivery = {
  id: '0190a5a0-0000-7000-8000-000000000001',
  eventId: '0190a5a0-0000-7000-8000-000000000002',
  eventType: 'webhook.ping',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: '2026-06-15T12:00:00.000Z',
  lastAttemptAt: null,
  responseStatus: null,
  responseBody: null,
  error: null,
  durationMs: null,
  createdAt: '2026-06-15T12:00:00.000Z',
};

describe('the event types, picked by resource', () => {
  it('sends a resource’s "all of them" as song.*, its ticked types otherwise, in the API’s order', () => {
    const picked = choice({
      song: { all: true, verbs: ['created'] },
      playlist: { all: false, verbs: ['deleted', 'created'] },
    });
    expect(eventsOf(picked)).toEqual(['song.*', 'playlist.created', 'playlist.deleted']);
    expect(eventsOf(NO_EVENTS)).toEqual([]);
  });

  it('reads a list of types back into the same choice, and keeps what it does not know apart', () => {
    const events = ['song.*', 'artist.updated', 'artist.created', 'user.deleted'];
    const { choice: back, unknown } = choiceOf(events);
    expect(unknown).toEqual([]);
    expect(back).toEqual(
      choice({
        song: { all: true, verbs: [] },
        artist: { all: false, verbs: ['updated', 'created'] },
        user: { all: false, verbs: ['deleted'] },
      }),
    );
    // Round trip: the API's order, whatever order the types came in.
    expect(eventsOf(back)).toEqual(['song.*', 'artist.created', 'artist.updated', 'user.deleted']);
    expect(choiceOf(['song.played', 'album.*', 'song.created.x', 'song.created']).unknown).toEqual([
      'song.played',
      'album.*',
      'song.created.x',
    ]);
  });

  it('words a webhook’s types a line a resource, and offers user events to admins only', () => {
    expect(eventLines(['playlist.deleted', 'song.*', 'playlist.created', 'song.played'])).toEqual([
      'Every song event',
      'Playlists: created, deleted',
      'song.played',
    ]);
    expect(resourcesFor(true)).toEqual(['song', 'artist', 'playlist', 'user']);
    expect(resourcesFor(false)).toEqual(['song', 'artist', 'playlist']);
  });
});

describe('the New webhook form', () => {
  it('reads a URL, the types and a description, trimmed; no description when left empty', () => {
    const events = choice({ song: { all: true, verbs: [] } });
    expect(readWebhookForm({ url: ' https://hooks.example.com/m ', events, description: '  CI ' })).toEqual({
      ok: true,
      input: { url: 'https://hooks.example.com/m', events: ['song.*'], description: 'CI' },
    });
    expect(readWebhookForm({ url: 'https://h.example', events, description: '   ' })).toEqual({
      ok: true,
      input: { url: 'https://h.example', events: ['song.*'] },
    });
    // Which schemes are allowed is the service's to say: ftp: reaches it, to be refused there.
    expect(readWebhookForm({ url: 'ftp://x', events, description: '' }).ok).toBe(true);
  });

  it('refuses no URL, no type and a long description, each on its field', () => {
    const reading = readWebhookForm({ url: ' ', events: NO_EVENTS, description: 'x'.repeat(501) });
    expect(reading).toEqual({
      ok: false,
      fields: {
        url: expect.stringMatching(/^Enter the URL/),
        events: 'Choose at least one event type',
        description: expect.stringMatching(/at most 500 characters \(it has 501\)/),
      },
    });
    const notUrl = readWebhookForm({ url: 'hooks.example.com', events: choice({}), description: '' });
    expect(notUrl.ok ? null : notUrl.fields.url).toMatch(/whole URL/);
    const long = readWebhookForm({
      url: `https://h.example/${'x'.repeat(2000)}`,
      events: choice({ artist: { all: true, verbs: [] } }),
      description: '',
    });
    expect(long).toEqual({ ok: false, fields: { url: expect.stringMatching(/at most 2000 characters/) } });
  });
});

describe('a webhook and its deliveries in words', () => {
  it('says a webhook’s state, and why it is disabled', () => {
    expect(webhookState({ enabled: true, disabledReason: null })).toEqual({ label: 'Enabled', reason: null });
    expect(webhookState({ enabled: false, disabledReason: 'Paused by its owner' })).toEqual({
      label: 'Disabled',
      reason: 'Paused by its owner',
    });
  });

  it('says the answer, or why there was none, and lets only a settled delivery be sent again', () => {
    expect(answerWords({ ...DELIVERY, attempts: 1, responseStatus: 204 })).toBe('204');
    expect(answerWords({ ...DELIVERY, attempts: 1, error: 'connect ECONNREFUSED' })).toBe(
      'connect ECONNREFUSED',
    );
    expect(answerWords(DELIVERY)).toBe('Not sent yet');
    expect(canSendAgain(DELIVERY)).toBe(false);
    expect(canSendAgain({ status: 'failed' })).toBe(true);
    expect(canSendAgain({ status: 'succeeded' })).toBe(true);
  });

  it('tells a ping’s or a resend’s outcome once an attempt after it is made', () => {
    const ping = { id: DELIVERY.id, attempts: 0, label: 'Test ping' };
    expect(outcome(ping, [DELIVERY])).toBeNull();
    expect(outcome(ping, [])).toBeNull();
    const done = { ...DELIVERY, status: 'succeeded' as const, attempts: 1, responseStatus: 204 };
    expect(outcome(ping, [done])).toBe('Test ping: succeeded (204).');
    // Sent again: the answer of the attempt before it is not its outcome.
    const again = { ...ping, attempts: 1, label: 'song.created sent again' };
    expect(outcome(again, [{ ...done, status: 'pending' }])).toBeNull();
    expect(outcome(again, [{ ...done, status: 'failed', attempts: 2, responseStatus: 500 }])).toBe(
      'song.created sent again: failed (500).',
    );
    expect(outcome(ping, [{ ...DELIVERY, attempts: 1, responseStatus: 500 }])).toBe(
      'Test ping: not delivered (500); it will be tried again.',
    );
  });

  it('reads the deliveries again every second just after a send, slowly while one is pending', () => {
    const now = 1_000_000;
    expect(pollInterval([], now - 5000, now)).toBe(1000);
    expect(pollInterval([{ status: 'succeeded' }], now - 25_000, now)).toBe(false);
    expect(pollInterval([{ status: 'pending' }], null, now)).toBe(10_000);
    expect(pollInterval([{ status: 'failed' }], null, now)).toBe(false);
  });
});

describe('new webhooks through the console’s /api/trpc', () => {
  it('answers the secret at the making', async () => {
    const made = await consoleClient().webhooks.create.mutate({
      url: 'https://h.example',
      events: ['song.*'],
    });
    expect(made.secret).toMatch(/^whsec_/);
    expect(fake.calls.map((call) => call.path)).toEqual(['/trpc/webhooks.create']);
  });

  it('puts the server’s 422 beside the URL, and a type item’s on the event types', async () => {
    const client = consoleClient();
    const ftp = await client.webhooks.create
      .mutate({ url: 'ftp://x', events: ['song.*'] })
      .catch((e: unknown) => e);
    expect(webhookRefusal(ftp)).toEqual({ message: null, fields: { url: 'Must be an https: URL' } });
    const odd = await client.webhooks.create
      .mutate({ url: 'https://h.example', events: ['song.*', 'song.played'] })
      .catch((e: unknown) => e);
    expect(webhookRefusal(odd)).toEqual({
      message: null,
      fields: { events: expect.stringMatching(/song\.played/) },
    });
    const listener = consoleClient('access-listener');
    const users = await listener.webhooks.create
      .mutate({ url: 'https://h.example', events: ['user.*'] })
      .catch((e: unknown) => e);
    expect(webhookRefusal(users).fields).toEqual({ events: 'Only admins may be sent user events' });
  });

  it('says in words that an account is full (409) at the 26th webhook', async () => {
    const client = consoleClient();
    for (let i = 0; i < MAX_WEBHOOKS; i++)
      await client.webhooks.create.mutate({ url: `https://h.example/${i}`, events: ['song.*'] });
    expect(hooks).toHaveLength(MAX_WEBHOOKS);
    const refused = await client.webhooks.create
      .mutate({ url: 'https://h.example/more', events: ['song.*'] })
      .catch((error: unknown) => error);
    expect(webhookRefusal(refused)).toEqual({
      message: expect.stringMatching(/^You have 25 webhooks, the most an account may have\. Delete one/),
      fields: {},
    });
  });
});
