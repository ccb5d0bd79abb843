import { auditEvents, uuidv7 } from '@music/db';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTOR_PASSWORD, appCode, createRouterHarness } from '../../../testing/index';
import { etagOf } from '../../etag';

const h = await createRouterHarness();
afterAll(() => h.close());

/** The events about one record, oldest first. */
const eventsOf = async (targetId: string) =>
  (await auditEvents.listAuditEvents(h.database.db, { targetId, limit: 100 })).reverse();

const total = async () => {
  const row = await h.database.db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

describe('the audit trail records every write, once', () => {
  it('songs: created, updated (only what changed), deleted; a PATCH changing nothing records nothing', async () => {
    const admin = await h.makeActor('admin');
    const artist = await h.caller(admin).artists.create({ name: 'Recorder' });
    const song = await h.caller(admin).songs.create({ title: 'One', duration: 60, artistIds: [artist.id] });
    await h.caller(admin).songs.update({ songId: song.id, title: 'One', duration: 60 });
    await h.caller(admin).songs.update({ songId: song.id, title: 'Two', artistIds: [] });
    await h.caller(admin).songs.delete({ songId: song.id });
    const events = await eventsOf(song.id);
    expect(events.map((e) => e.action)).toEqual(['song.created', 'song.updated', 'song.deleted']);
    expect(events[0]!.changes).toEqual({
      title: { before: null, after: 'One' },
      duration: { before: null, after: 60 },
      artistIds: { before: null, after: [artist.id] },
    });
    expect(events[1]!.changes).toEqual({
      title: { before: 'One', after: 'Two' },
      artistIds: { before: [artist.id], after: [] },
    });
    expect(events[2]!.changes).toEqual({
      title: { before: 'Two', after: null },
      duration: { before: 60, after: null },
      artistIds: { before: [], after: null },
    });
    expect(events[0]).toMatchObject({
      actor_user_id: admin.user.id,
      actor_api_key_id: null,
      target_type: 'song',
    });
  });

  it('artists: created, updated, linked and unlinked songs (a repeated link records nothing), deleted', async () => {
    const admin = await h.makeActor('admin');
    const artist = await h.caller(admin).artists.create({ name: 'Linked', bio: 'b' });
    const song = await h.caller(admin).songs.create({ title: 'S', duration: 60 });
    await h.caller(admin).artists.update({ artistId: artist.id, bio: 'b' });
    await h.caller(admin).artists.update({ artistId: artist.id, name: 'Renamed' });
    await h.caller(admin).artists.linkSong({ artistId: artist.id, songId: song.id });
    await h.caller(admin).artists.linkSong({ artistId: artist.id, songId: song.id });
    await h.caller(admin).artists.unlinkSong({ artistId: artist.id, songId: song.id });
    await h.caller(admin).artists.delete({ artistId: artist.id });
    const events = await eventsOf(artist.id);
    expect(events.map((e) => [e.action, e.changes])).toEqual([
      ['artist.created', { name: { before: null, after: 'Linked' }, bio: { before: null, after: 'b' } }],
      ['artist.updated', { name: { before: 'Linked', after: 'Renamed' } }],
      ['artist.song_linked', { songId: { before: null, after: song.id } }],
      ['artist.song_unlinked', { songId: { before: song.id, after: null } }],
      ['artist.deleted', { name: { before: 'Renamed', after: null }, bio: { before: 'b', after: null } }],
    ]);
  });

  it('playlists: created, songs added, removed and reordered, updated, deleted', async () => {
    const owner = await h.makeActor('user');
    const admin = await h.makeActor('admin');
    const [a, b] = [
      await h.caller(admin).songs.create({ title: 'A', duration: 60 }),
      await h.caller(admin).songs.create({ title: 'B', duration: 60 }),
    ];
    const list = await h.caller(owner).playlists.create({ name: 'Mine', songIds: [a.id] });
    await h.caller(owner).playlists.addSong({ playlistId: list.id, songId: b.id });
    await h.caller(owner).playlists.replace({ playlistId: list.id, name: 'Mine', songIds: [b.id, a.id] });
    await h.caller(owner).playlists.replace({ playlistId: list.id, name: 'Mine', songIds: [b.id, a.id] });
    await h.caller(owner).playlists.removeSong({ playlistId: list.id, songId: a.id });
    await h.caller(owner).playlists.replace({ playlistId: list.id, name: 'Ours', isPublic: true });
    await h.caller(owner).playlists.delete({ playlistId: list.id });
    const events = await eventsOf(list.id);
    expect(events.map((e) => [e.action, e.changes])).toEqual([
      [
        'playlist.created',
        {
          userId: { before: null, after: owner.user.id },
          name: { before: null, after: 'Mine' },
          isPublic: { before: null, after: false },
          songIds: { before: null, after: [a.id] },
        },
      ],
      ['playlist.song_added', { songId: { before: null, after: b.id } }],
      ['playlist.songs_reordered', { songIds: { before: [a.id, b.id], after: [b.id, a.id] } }],
      ['playlist.song_removed', { songId: { before: a.id, after: null } }],
      [
        'playlist.updated',
        { name: { before: 'Mine', after: 'Ours' }, isPublic: { before: false, after: true } },
      ],
      [
        'playlist.deleted',
        {
          userId: { before: owner.user.id, after: null },
          name: { before: 'Ours', after: null },
          isPublic: { before: true, after: null },
          songIds: { before: [b.id], after: null },
        },
      ],
    ]);
  });

  it('users: sign-up (anonymous), patch, role, password as "changed", reset link and reset, delete', async () => {
    const admin = await h.makeActor('admin');
    const email = `audit-${uuidv7()}@example.com`;
    const user = await h.caller(null).users.create({ username: 'aud', email, password: 'first-password' });
    await h.caller(admin).users.patch({ userId: user.id, username: 'aud' });
    await h.caller(admin).users.patch({ userId: user.id, username: 'renamed', password: 'second-password' });
    await h.caller(admin).users.patch({ userId: user.id, password: 'third-password' });
    await h.caller(admin).users.setRole({ userId: user.id, role: 'artist' });
    await h.caller(admin).users.setRole({ userId: user.id, role: 'artist' });
    const link = await h.caller(admin).users.passwordResetLink({ userId: user.id });
    const token = link.url.split('#token=')[1]!;
    await h.caller(null).auth.resetPassword({ token, password: 'fourth-password' });
    await h.caller(admin).users.delete({ userId: user.id });
    const events = await eventsOf(user.id);
    expect(events.map((e) => [e.action, e.actor_user_id, e.changes])).toEqual([
      [
        'user.created',
        null,
        {
          username: { before: null, after: 'aud' },
          email: { before: null, after: email },
          role: { before: null, after: 'user' },
          password: 'changed',
        },
      ],
      ['user.updated', admin.user.id, { username: { before: 'aud', after: 'renamed' }, password: 'changed' }],
      ['user.password_changed', admin.user.id, { password: 'changed' }],
      ['user.role_changed', admin.user.id, { role: { before: 'user', after: 'artist' } }],
      ['user.reset_link_created', admin.user.id, {}],
      ['user.password_reset', user.id, { password: 'changed' }],
      [
        'user.deleted',
        admin.user.id,
        {
          username: { before: 'renamed', after: null },
          email: { before: email, after: null },
          role: { before: 'artist', after: null },
        },
      ],
    ]);
    // An admin creating an account is its actor.
    const made = await h.caller(admin).users.create({
      username: 'made',
      email: `made-${uuidv7()}@example.com`,
      password: ACTOR_PASSWORD,
      role: 'artist',
    });
    expect((await eventsOf(made.id)).map((e) => [e.action, e.actor_user_id])).toEqual([
      ['user.created', admin.user.id],
    ]);
  });

  it('records nothing for a refused or failed write (403, 404, 409, 412, 422)', async () => {
    const admin = await h.makeActor('admin');
    const listener = await h.makeActor('user');
    const song = await h.caller(admin).songs.create({ title: 'Guarded', duration: 60 });
    const taken = await h.caller(admin).users.create({
      username: 'taken',
      email: `taken-${uuidv7()}@example.com`,
      password: ACTOR_PASSWORD,
    });
    const before = await total();
    expect(await appCode(h.caller(listener).songs.update({ songId: song.id, title: 'No' }))).toBe(
      'FORBIDDEN',
    );
    expect(await appCode(h.caller(listener).songs.delete({ songId: song.id }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(admin).songs.update({ songId: uuidv7(), title: 'No' }))).toBe('NOT_FOUND');
    expect(
      await appCode(h.callerIfMatch(admin, ['"stale"']).songs.update({ songId: song.id, title: 'No' })),
    ).toBe('PRECONDITION_FAILED');
    expect(
      await appCode(h.caller(admin).songs.update({ songId: song.id, title: 'No', artistIds: [uuidv7()] })),
    ).toBe('VALIDATION_FAILED');
    expect(
      await appCode(
        h.caller(null).users.create({ username: 'dup', email: taken.email, password: ACTOR_PASSWORD }),
      ),
    ).toBe('CONFLICT');
    // A unique violation inside the write's transaction.
    expect(await appCode(h.caller(admin).users.patch({ userId: listener.user.id, email: taken.email }))).toBe(
      'CONFLICT',
    );
    expect(await appCode(h.caller(listener).artists.create({ name: 'No' }))).toBe('FORBIDDEN');
    expect(await appCode(h.caller(listener).playlists.create({ name: 'No', songIds: [uuidv7()] }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await appCode(h.caller(null).auth.resetPassword({ token: 'x'.repeat(43), password: 'whatever1' })),
    ).toBe('VALIDATION_FAILED');
    expect(await total()).toBe(before);
    // And the write that succeeds after them is recorded.
    await h.callerIfMatch(admin, [etagOf(song)]).songs.update({ songId: song.id, title: 'Yes' });
    expect(await total()).toBe(before + 1);
  });

  it('records exactly N events for N concurrent writes', async () => {
    const admin = await h.makeActor('admin');
    const owner = await h.makeActor('user');
    const list = await h.caller(owner).playlists.create({ name: 'Busy' });
    const songs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.caller(admin).songs.create({ title: `C${i}`, duration: 60 })),
    );
    await Promise.all(
      songs.map((s) => h.caller(owner).playlists.addSong({ playlistId: list.id, songId: s.id })),
    );
    const added = (await eventsOf(list.id)).filter((e) => e.action === 'playlist.song_added');
    expect(added).toHaveLength(20);
    expect(new Set(added.map((e) => (e.changes.songId as { after: string }).after))).toEqual(
      new Set(songs.map((s) => s.id)),
    );
    const created = await Promise.all(songs.map((s) => eventsOf(s.id)));
    expect(created.map((e) => e.length)).toEqual(songs.map(() => 1));
  });
});
