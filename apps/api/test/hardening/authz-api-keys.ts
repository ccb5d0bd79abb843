import { type Entry, notFound, same, type Target } from './authz-rules';
import { insertApiKeyRow, missingId } from './support';

/** A key of `user`'s, made for the cell. */
const usersKey: Target['input'] = async (db, w) => ({
  keyId: (await insertApiKeyRow(db, w.actors.user.user.id, ['catalogue:read'])).id,
});

/** Your own key, or any as an admin; someone else's is a 404 (ids tell nothing). */
const ownOrAdmin = { user: 'ok', admin: 'ok', others: 404 } as const;

/** The authorization matrix's rows for API keys (a signed-in session manages them; keys never do). */
export const API_KEY_ROWS: Record<string, Entry> = {
  'apiKeys.create': {
    targets: {
      'with a scope': {
        input: same({ name: 'Matrix key', scopes: ['catalogue:read'] }),
        expect: { signedIn: 'ok' },
      },
    },
  },
  'apiKeys.list': {
    targets: {
      own: { input: same({}), expect: { signedIn: 'ok' } },
      "user's": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id }),
        expect: { user: 'ok', admin: 'ok', others: 403 },
      },
      'missing user': { input: async () => ({ userId: missingId() }), expect: { admin: 404, others: 403 } },
    },
  },
  'apiKeys.get': {
    targets: {
      "user's key": { input: usersKey, expect: ownOrAdmin },
      missing: { input: async () => ({ keyId: missingId() }), expect: notFound },
      malformed: { input: same({ keyId: 'not-a-uuid' }), expect: notFound },
    },
  },
  'apiKeys.delete': {
    targets: {
      "user's key": { input: usersKey, expect: ownOrAdmin },
      missing: { input: async () => ({ keyId: missingId() }), expect: notFound },
    },
  },
};
