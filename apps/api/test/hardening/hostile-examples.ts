import type { SignedActor } from '@music/api-router/testing';
import { DEAD_HOOK_URL } from './support';

/** The valid inputs the hostile-input properties (hostile-properties.test.ts) start from. */

export type Input = Record<string, unknown>;
export type Who = 'anonymous' | 'user' | 'admin';

export interface Fixtures {
  user: SignedActor;
  admin: SignedActor;
  /** Someone else: nothing of theirs may change through a non-admin's request. */
  victim: SignedActor;
  artistIds: string[];
  songIds: string[];
  playlistIds: string[];
  /** The victim's API key and the user's own. */
  keyIds: string[];
  /** The victim's webhook and the user's own; a delivery of each. */
  webhookIds: string[];
  deliveryIds: string[];
}

/** A valid input per procedure, path params left out; the mutations start from these. */
export const EXAMPLES: Record<string, (f: Fixtures) => Input> = {
  'auth.login': (f) => ({ email: f.victim.user.email, password: 'not-the-password' }),
  'auth.refresh': () => ({ refreshToken: 'not-a-refresh-token' }),
  'auth.logout': () => ({}),
  'auth.me': () => ({}),
  'auth.requestPasswordReset': (f) => ({ email: f.victim.user.email }),
  'auth.resetPassword': () => ({ token: 'not-a-reset-token', password: 'a-good-password' }),
  'users.list': () => ({ role: 'user', search: 'a', sort: '-username,createdAt', page: 1, limit: 10 }),
  'users.profiles': (f) => ({
    ids: `${f.user.user.id},${f.victim.user.id}`,
    search: 'a',
    page: 1,
    limit: 10,
  }),
  'users.create': () => ({ username: 'Prop', email: 'prop@example.com', password: 'a-good-password' }),
  'users.get': () => ({}),
  'users.update': (f) => ({ username: 'Prop', email: f.user.user.email, password: 'a-good-password' }),
  'users.delete': () => ({}),
  'users.setRole': () => ({ role: 'admin' }),
  'users.patch': () => ({ username: 'Prop', password: 'a-good-password', currentPassword: 'a-guess' }),
  'users.passwordResetLink': () => ({}),
  'artists.list': () => ({ search: 'a', sort: '-createdAt,name', page: 1, limit: 10 }),
  'artists.create': (f) => ({ name: 'Prop artist', bio: 'b', userId: f.victim.user.id }),
  'artists.get': () => ({}),
  'artists.replace': () => ({ name: 'Prop artist', bio: null }),
  'artists.update': () => ({ name: 'Prop artist' }),
  'artists.delete': () => ({}),
  'artists.songs': () => ({ page: 1, limit: 10 }),
  'artists.linkSong': () => ({}),
  'artists.unlinkSong': () => ({}),
  'songs.export': () => ({ format: 'ndjson' }),
  'songs.list': (f) => ({
    search: 'song',
    genre: 'rock',
    artistId: f.artistIds[0],
    sort: '-releaseYear,album',
    page: 1,
    limit: 10,
  }),
  'songs.create': (f) => ({
    title: 'Prop song',
    album: 'A',
    genre: 'g',
    duration: 100,
    releaseYear: 2000,
    artistIds: [f.artistIds[0]],
  }),
  'songs.get': () => ({}),
  'songs.update': (f) => ({ title: 'Prop song', duration: 10, artistIds: [f.artistIds[1]] }),
  'songs.delete': () => ({}),
  'genres.list': () => ({ search: 'rock', page: 1, limit: 10 }),
  'search.find': () => ({ q: 'prop song', types: 'songs,artists,albums,playlists', limit: 5 }),
  'playlists.list': (f) => ({ userId: f.user.user.id, page: 1, limit: 10 }),
  'playlists.create': (f) => ({
    name: 'Prop list',
    description: 'd',
    isPublic: true,
    songIds: [f.songIds[0]],
  }),
  'playlists.get': () => ({}),
  'playlists.replace': (f) => ({ name: 'Prop list', songIds: [f.songIds[1], f.songIds[0]] }),
  'playlists.delete': () => ({}),
  'playlists.songs': () => ({ page: 1, limit: 10 }),
  'playlists.addSong': (f) => ({ songId: f.songIds[2] }),
  'playlists.removeSong': () => ({}),
  'apiKeys.create': () => ({
    name: 'Prop key',
    scopes: ['catalogue:read'],
    expiresAt: '2030-01-01T00:00:00Z',
  }),
  'apiKeys.list': (f) => ({ userId: f.victim.user.id, page: 1, limit: 10 }),
  'apiKeys.get': () => ({}),
  'apiKeys.delete': () => ({}),
  'auditEvents.list': (f) => ({
    actorId: f.user.user.id,
    action: 'song.created',
    targetType: 'song',
    since: '2026-01-01T00:00:00Z',
    limit: 10,
  }),
  'events.list': () => ({ types: 'song.*,user.created', limit: 10 }),
  'imports.create': () => ({ dryRun: 'true' }),
  'imports.get': () => ({}),
  'webhooks.create': () => ({
    url: DEAD_HOOK_URL,
    events: ['song.*', 'artist.created'],
    description: 'Prop hook',
  }),
  'webhooks.list': (f) => ({ userId: f.victim.user.id, page: 1, limit: 10 }),
  'webhooks.get': () => ({}),
  'webhooks.update': () => ({
    url: DEAD_HOOK_URL,
    events: ['playlist.*'],
    description: null,
    enabled: false,
  }),
  'webhooks.delete': () => ({}),
  'webhooks.deliveries': () => ({ limit: 10 }),
  'webhooks.retryDelivery': () => ({}),
  'webhooks.ping': () => ({}),
};
