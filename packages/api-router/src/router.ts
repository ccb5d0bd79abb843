import { apiKeysRouter } from './modules/api-keys/api-keys.router';
import { artistsRouter } from './modules/artists/artists.router';
import { auditEventsRouter } from './modules/audit-events/audit-events.router';
import { authRouter } from './modules/auth/auth.router';
import { eventsRouter } from './modules/events/events.router';
import { genresRouter } from './modules/genres/genres.router';
import { importsRouter } from './modules/imports/imports.router';
import { playlistsRouter } from './modules/playlists/playlists.router';
import { searchRouter } from './modules/search/search.router';
import { songsRouter } from './modules/songs/songs.router';
import { usersRouter } from './modules/users/users.router';
import { webhooksRouter } from './modules/webhooks/webhooks.router';
import { router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  apiKeys: apiKeysRouter,
  artists: artistsRouter,
  songs: songsRouter,
  genres: genresRouter,
  playlists: playlistsRouter,
  auditEvents: auditEventsRouter,
  events: eventsRouter,
  webhooks: webhooksRouter,
  imports: importsRouter,
  search: searchRouter,
});

export type AppRouter = typeof appRouter;
