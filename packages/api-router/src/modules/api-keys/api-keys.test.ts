import { artists, apiKeys as keyRows } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appCode, createRouterHarness, failureOf } from '../../../testing/index';
import { type Actor, authenticate } from '../../context';
import { pageMode } from '../../schemas';
import type { Scope } from '../../scopes';

/**
 * API keys at the procedure tier: made once (the token never stored), found by their prefix and
 * proved by their hash on every request, acting as their owner within their scopes and never
 * beyond the owner's role at that moment, and never managing keys or credentials.
 */
const h = await createRouterHarness();
afterAll(() => h.close());
const db = h.database.db;

async function keyFor(owner: Actor, scopes: Scope[], extra: { expiresAt?: string } = {}) {
  return h.caller(owner).apiKeys.create({ name: 'ingest job', scopes, ...extra });
}
/** The actor a request with this key would have: the real authentication path. */
async function asKey(token: string): Promise<Actor> {
  const actor = await authenticate(h.deps, `Bearer ${token}`);
  if (!actor) throw new Error('the key was refused');
  return actor;
}

describe('making a key', () => {
  it('shows the mc_ token once and stores only its hash', async () => {
    const me = await h.makeActor();
    const key = await keyFor(me, ['catalogue:read']);
    expect(key.token).toMatch(/^mc_[A-Za-z0-9_-]{40}$/);
    expect(key).toMatchObject({
      name: 'ingest job',
      scopes: ['catalogue:read'],
      prefix: key.token.slice(0, 12),
    });
    expect(key).toMatchObject({ expiresAt: null, lastUsedAt: null });
    const rows = await db.selectFrom('api_keys').selectAll().where('id', '=', key.id).execute();
    expect(JSON.stringify(rows)).not.toContain(key.token);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const read = await h.caller(me).apiKeys.get({ keyId: key.id });
    expect(read).not.toHaveProperty('token');
    expect(read.prefix).toBe(key.prefix);
  });

  it('refuses unknown or repeated scopes, none at all, and an expiry in the past (422)', async () => {
    const me = await h.makeActor();
    const bad: unknown[] = [
      { name: 'k', scopes: [] },
      { name: 'k', scopes: ['songs:read'] },
      { name: 'k', scopes: ['catalogue:read', 'catalogue:read'] },
      { name: 'k', scopes: ['catalogue:read'], expiresAt: '2020-01-01T00:00:00Z' },
      { name: 'k', scopes: ['catalogue:read'], expiresAt: 'tomorrow' },
      { name: ' ', scopes: ['catalogue:read'] },
    ];
    for (const input of bad) {
      // biome-ignore lint/suspicious/noExplicitAny: invalid input on purpose.
      expect(await appCode(h.caller(me).apiKeys.create(input as any)), JSON.stringify(input)).toBe(
        'VALIDATION_FAILED',
      );
    }
    expect(pageMode((await h.caller(me).apiKeys.list({ page: 1, limit: 20 })).pagination).total).toBe(0);
  });
});

describe('a key on a request', () => {
  it('acts as its owner, found by prefix and proved by hash; a wrong, deleted or expired key is refused', async () => {
    const me = await h.makeActor();
    const key = await keyFor(me, ['catalogue:read']);
    const actor = await asKey(key.token);
    expect(actor.user.id).toBe(me.user.id);
    expect(actor.apiKey).toEqual({ id: key.id, scopes: ['catalogue:read'] });
    const forged = `${key.token.slice(0, -2)}${key.token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await authenticate(h.deps, `Bearer ${forged}`)).toBeNull();
    expect(await authenticate(h.deps, 'Bearer mc_short')).toBeNull();

    const expiring = await keyFor(me, ['catalogue:read'], {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await authenticate(h.deps, `Bearer ${expiring.token}`)).not.toBeNull();
    await db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect(await authenticate(h.deps, `Bearer ${expiring.token}`)).toBeNull();

    await h.caller(me).apiKeys.delete({ keyId: key.id });
    expect(await authenticate(h.deps, `Bearer ${key.token}`)).toBeNull();
  });

  it('stops working when its owner is deleted', async () => {
    const admin = await h.makeActor('admin');
    const me = await h.makeActor();
    const key = await keyFor(me, ['users:read']);
    await h.caller(admin).users.delete({ userId: me.user.id });
    expect(await authenticate(h.deps, `Bearer ${key.token}`)).toBeNull();
  });

  it('is refused outside its scopes with a challenge naming the scope, and inside them passes', async () => {
    const me = await h.makeActor();
    const reader = await asKey((await keyFor(me, ['catalogue:read'])).token);
    await expect(h.caller(reader).songs.list({ page: 1, limit: 5 })).resolves.toHaveProperty('data');
    const refused = await failureOf(h.caller(reader).playlists.list({ page: 1, limit: 5 }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.challenge).toBe(
      'Bearer realm="music", error="insufficient_scope", scope="playlists:read"',
    );
    const write = await failureOf(h.caller(reader).playlists.create({ name: 'Mine' }));
    expect(write.challenge).toContain('scope="playlists:write"');
    // Refused before the input is read: a malformed body still gets the 403.
    // biome-ignore lint/suspicious/noExplicitAny: invalid input on purpose.
    expect(await appCode(h.caller(reader).songs.create({ title: 42 } as any))).toBe('FORBIDDEN');
    // Any key may ask whose it is.
    expect((await h.caller(reader).auth.me()).id).toBe(me.user.id);
  });

  it('never goes beyond what its owner’s role allows now', async () => {
    const admin = await h.makeActor('admin');
    const artistUser = await h.makeActor('artist');
    const artist = await artists.insertArtist(db, {
      id: crypto.randomUUID(),
      name: 'Keyed',
      bio: null,
      user_id: artistUser.user.id,
    });
    const writer = await asKey((await keyFor(artistUser, ['catalogue:write', 'catalogue:read'])).token);
    const song = await h.caller(writer).songs.create({ title: 'By key', duration: 100 });
    expect(song.artistIds).toEqual([artist.id]);
    // A user's key with every scope is still a user.
    const user = await h.makeActor();
    const all = await asKey((await keyFor(user, ['catalogue:write', 'users:write', 'users:read'])).token);
    expect(await appCode(h.caller(all).songs.create({ title: 'No', duration: 100 }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(all).users.get({ userId: admin.user.id }))).toBe('FORBIDDEN');
    // Demoted: the same key loses the artist's powers on its next request.
    await h.caller(admin).users.setRole({ userId: artistUser.user.id, role: 'user' });
    const demoted = await asKey((await keyFor(artistUser, ['catalogue:write'])).token);
    expect(await appCode(h.caller(demoted).songs.update({ songId: song.id, title: 'Still mine?' }))).toBe(
      'FORBIDDEN',
    );
  });

  it('never manages keys, signs out, or changes an email or a password; a rename passes', async () => {
    const me = await h.makeActor();
    const key = await asKey((await keyFor(me, ['users:write', 'users:read'])).token);
    const sessionOnly = await failureOf(h.caller(key).apiKeys.list({ page: 1, limit: 20 }));
    expect(sessionOnly.code).toBe('FORBIDDEN');
    expect(sessionOnly.challenge).toBe('Bearer realm="music", error="insufficient_scope"');
    expect(await appCode(h.caller(key).apiKeys.create({ name: 'child', scopes: ['users:read'] }))).toBe(
      'FORBIDDEN',
    );
    expect(await appCode(h.caller(key).auth.logout())).toBe('FORBIDDEN');
    const userId = me.user.id;
    expect(await appCode(h.caller(key).users.patch({ userId, email: 'thief@example.com' }))).toBe(
      'FORBIDDEN',
    );
    expect(await appCode(h.caller(key).users.patch({ userId, password: 'new-password-1' }))).toBe(
      'FORBIDDEN',
    );
    expect(
      await appCode(
        h
          .caller(key)
          .users.update({ userId, username: 'x', email: me.user.email, password: 'other-password-1' }),
      ),
    ).toBe('FORBIDDEN');
    expect((await h.caller(key).users.patch({ userId, username: 'Renamed by key' })).username).toBe(
      'Renamed by key',
    );
    const admin = await h.makeActor('admin');
    const adminKey = await asKey((await keyFor(admin, ['users:write'])).token);
    expect(await appCode(h.caller(adminKey).users.passwordResetLink({ userId }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(adminKey).users.patch({ userId, password: 'set-by-key-1' }))).toBe(
      'FORBIDDEN',
    );
  });
});

describe('managing keys', () => {
  it('lists your own, oldest first; another user’s key is a 404 to you and readable by an admin', async () => {
    const me = await h.makeActor();
    const other = await h.makeActor();
    const admin = await h.makeActor('admin');
    const firstKey = await keyFor(me, ['catalogue:read']);
    const second = await keyFor(me, ['playlists:read']);
    const theirs = await keyFor(other, ['catalogue:read']);
    const mine = await h.caller(me).apiKeys.list({ page: 1, limit: 20 });
    expect(mine.data.map((k) => k.id)).toEqual([firstKey.id, second.id]);
    expect(pageMode(mine.pagination).total).toBe(2);
    // By cursor too, one at a time, oldest first, to the end.
    const first = await h.caller(me).apiKeys.list({ cursor: '', limit: 1 });
    expect(first.data.map((k) => k.id)).toEqual([firstKey.id]);
    const cursor = (first.pagination as { nextCursor: string | null }).nextCursor!;
    const next = await h.caller(me).apiKeys.list({ cursor, limit: 1 });
    expect(next.data.map((k) => k.id)).toEqual([second.id]);
    expect(next.pagination).toEqual({ limit: 1, nextCursor: null });
    expect(await appCode(h.caller(me).apiKeys.list({ cursor: `${cursor}x`, limit: 1 }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await appCode(h.caller(me).apiKeys.get({ keyId: theirs.id }))).toBe('NOT_FOUND');
    expect(await appCode(h.caller(me).apiKeys.delete({ keyId: theirs.id }))).toBe('NOT_FOUND');
    expect(await appCode(h.caller(me).apiKeys.get({ keyId: 'not-a-uuid' }))).toBe('NOT_FOUND');
    expect(await appCode(h.caller(me).apiKeys.list({ page: 1, limit: 20, userId: other.user.id }))).toBe(
      'FORBIDDEN',
    );
    const listed = await h.caller(admin).apiKeys.list({ page: 1, limit: 20, userId: other.user.id });
    expect(listed.data.map((k) => k.id)).toEqual([theirs.id]);
    await h.caller(admin).apiKeys.delete({ keyId: theirs.id });
    expect(await appCode(h.caller(other).apiKeys.get({ keyId: theirs.id }))).toBe('NOT_FOUND');
  });

  it('records when a key was last used, in batches', async () => {
    const me = await h.makeActor();
    const key = await keyFor(me, ['catalogue:read']);
    await asKey(key.token);
    // Noted in memory only: nothing written yet.
    expect((await keyRows.findApiKey(db, key.id))?.last_used_at).toBeNull();
    const read = await h.caller(me).apiKeys.get({ keyId: key.id });
    expect(read.lastUsedAt).not.toBeNull();
    expect(Date.parse(read.lastUsedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('the audit trail of keys', () => {
  it('records making and deleting a key (never its token), and names the key of a write made with it', async () => {
    const admin = await h.makeActor('admin');
    const me = await h.makeActor('artist');
    await artists.insertArtist(db, {
      id: crypto.randomUUID(),
      name: 'Audited',
      bio: null,
      user_id: me.user.id,
    });
    const key = await keyFor(me, ['catalogue:write']);
    const song = await h.caller(await asKey(key.token)).songs.create({ title: 'Keyed write', duration: 90 });
    await h.caller(me).apiKeys.delete({ keyId: key.id });

    const events = async (targetId: string) =>
      (await h.caller(admin).auditEvents.list({ targetId, limit: 10 })).data;
    const [deleted, created] = await events(key.id);
    expect(created).toMatchObject({
      action: 'api_key.created',
      actor: { userId: me.user.id, apiKeyId: null },
      target: { type: 'api_key', id: key.id },
      changes: {
        name: { before: null, after: 'ingest job' },
        scopes: { before: null, after: ['catalogue:write'] },
      },
    });
    expect(deleted).toMatchObject({
      action: 'api_key.deleted',
      changes: { prefix: { before: key.prefix, after: null } },
    });
    expect(JSON.stringify([created, deleted])).not.toContain(key.token);
    const [write] = await events(song.id);
    expect(write).toMatchObject({ action: 'song.created', actor: { userId: me.user.id, apiKeyId: key.id } });
  });
});
