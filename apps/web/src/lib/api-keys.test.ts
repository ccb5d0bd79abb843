import { describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { fake, startFakeApi } from '../../test/fake-api';
import { MAX_KEYS, records } from '../../test/fake-records';
import { endOfDay, isExpired, keyRefusal, readKeyForm, SCOPE_GROUPS, SCOPE_WORDS } from './api-keys';
import { toProblem } from './errors';

startFakeApi();

const NOW = new Date(2026, 5, 15, 12, 0);

describe('the New API key form', () => {
  it('groups every scope exactly once, each with its words', () => {
    const grouped = SCOPE_GROUPS.flatMap((group) => group.scopes);
    expect([...grouped].sort()).toEqual(Object.keys(SCOPE_WORDS).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('reads a name, the ticked scopes in the API order and no expiry', () => {
    const reading = readKeyForm(
      { name: '  Nightly export ', scopes: ['playlists:read', 'catalogue:read'], expires: '' },
      NOW,
    );
    expect(reading).toEqual({
      ok: true,
      input: { name: 'Nightly export', scopes: ['catalogue:read', 'playlists:read'] },
    });
  });

  it('makes an expiry day the end of that day, local time, in ISO 8601 UTC', () => {
    const end = endOfDay('2026-06-20');
    expect(end).toBe(new Date(2026, 5, 20, 23, 59, 59, 999).toISOString());
    expect(readKeyForm({ name: 'k', scopes: ['users:read'], expires: '2026-06-20' }, NOW)).toEqual({
      ok: true,
      input: { name: 'k', scopes: ['users:read'], expiresAt: end },
    });
    expect(endOfDay('2026-02-30')).toBeNull();
    expect(endOfDay('20/06/2026')).toBeNull();
  });

  it('refuses a blank or long name, no scope and a day already over, each on its field', () => {
    const reading = readKeyForm({ name: '   ', scopes: [], expires: '2026-06-14' }, NOW);
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(Object.keys(reading.fields).sort()).toEqual(['expiresAt', 'name', 'scopes']);
    expect(reading.fields.name).toMatch(/Enter a name/);
    expect(reading.fields.scopes).toMatch(/at least one/);
    expect(reading.fields.expiresAt).toMatch(/after today/);
    const long = readKeyForm({ name: 'x'.repeat(101), scopes: ['users:read'], expires: '' }, NOW);
    expect(long).toEqual({
      ok: false,
      fields: { name: expect.stringMatching(/at most 100 characters \(it has 101\)/) },
    });
    // Today itself is not over yet: a key may expire tonight.
    expect(readKeyForm({ name: 'k', scopes: ['users:read'], expires: '2026-06-15' }, NOW).ok).toBe(true);
  });

  it('tells an expired key', () => {
    expect(isExpired({ expiresAt: null }, NOW)).toBe(false);
    expect(isExpired({ expiresAt: new Date(2026, 5, 15, 11).toISOString() }, NOW)).toBe(true);
    expect(isExpired({ expiresAt: new Date(2026, 5, 16).toISOString() }, NOW)).toBe(false);
  });
});

describe('API keys through the console’s /api/trpc', () => {
  it('answers the token once, at the making, and never in the list', async () => {
    const client = consoleClient();
    const made = await client.apiKeys.create.mutate({ name: 'CI', scopes: ['catalogue:read'] });
    expect(made.token).toMatch(/^mc_/);
    expect(made.prefix).toBe(made.token.slice(0, 12));
    const list = await client.apiKeys.list.query({ page: 1, limit: 20 });
    expect(list.data.map((key) => key.id)).toEqual([made.id]);
    expect(JSON.stringify(list)).not.toContain(made.token);
    expect(fake.calls.map((call) => [call.path.split('?')[0], call.authorization])).toEqual([
      ['/trpc/apiKeys.create', 'Bearer access-1'],
      ['/trpc/apiKeys.list', 'Bearer access-1'],
    ]);
  });

  it('revokes a key: gone from the list, and a second revoke is a 404', async () => {
    const client = consoleClient();
    const made = await client.apiKeys.create.mutate({ name: 'Old', scopes: ['users:read'] });
    await client.apiKeys.delete.mutate({ keyId: made.id });
    expect((await client.apiKeys.list.query({ page: 1, limit: 20 })).data).toEqual([]);
    const again = await client.apiKeys.delete.mutate({ keyId: made.id }).catch((error: unknown) => error);
    expect(toProblem(again).code).toBe('NOT_FOUND');
  });

  it('puts the server’s 422 beside the form’s field, a scope item’s on the scopes', async () => {
    const client = consoleClient();
    const refused = await client.apiKeys.create
      .mutate({ name: 'x'.repeat(101), scopes: ['users:read'] })
      .catch((error: unknown) => error);
    expect(keyRefusal(refused)).toEqual({ message: null, fields: { name: expect.stringMatching(/100/) } });
    const noScope = await client.apiKeys.create.mutate({ name: 'k', scopes: [] }).catch((e: unknown) => e);
    expect(keyRefusal(noScope).fields).toEqual({ scopes: expect.any(String) });
  });

  it('says in words that an account is full (409) at the 101st key', async () => {
    const client = consoleClient();
    for (let i = 0; i < MAX_KEYS; i++)
      await client.apiKeys.create.mutate({ name: `k${i}`, scopes: ['users:read'] });
    expect(records.keys).toHaveLength(MAX_KEYS);
    const refused = await client.apiKeys.create
      .mutate({ name: 'one too many', scopes: ['users:read'] })
      .catch((error: unknown) => error);
    expect(keyRefusal(refused)).toEqual({
      message: expect.stringMatching(/^You have 100 API keys, the most an account may have\. Revoke one/),
      fields: {},
    });
  });
});
