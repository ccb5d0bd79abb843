import type { Role } from '@/lib/trpc';

/**
 * What a home page asks the API for, per role: the same inputs on the server (which prefetches
 * them into the page) and in the browser (which then finds them in its cache). Each list is
 * asked for its few newest rows; its `total` is the count the page shows beside it.
 */
export const HOME_ROWS = 5;

/** The newest first, a few. */
const newest = { sort: '-createdAt', limit: HOME_ROWS } as const;

/** How many events "Recent activity" shows. */
export const HOME_EVENTS = 6;

/** Counts only: one row is the least a list answers, and its `total` is what is wanted. */
const countOnly = { limit: 1 } as const;

export const homeInputs = {
  /** An admin's counts of the catalogue and its accounts. */
  counts: countOnly,
  recentActivity: { limit: HOME_EVENTS },
  /** The newest songs, with their artists' names in the same answer. */
  newSongs: { ...newest, expand: 'artists' },
  myPlaylists: (userId: string) => ({ ...newest, userId }),
  /** An artist account's artist profiles (as useOwnArtists asks for them). */
  ownArtists: (userId: string) => ({ userId, limit: 100 }),
  artistSongs: (artistId: string) => ({ ...newest, artistId }),
  featuring: (artistId: string) => ({ ...newest, artistId, visibility: 'public' as const }),
};

/** Whether a role's home shows the catalogue's and the accounts' counts and the activity log. */
export const seesEverything = (role: Role) => role === 'admin';
