import { type Entry, notFound, same, type Target } from './authz-rules';
import { DEAD_HOOK_URL, insertImportRow, insertWebhookRow, missingId } from './support';

/** A webhook of `user`'s (and a failed delivery of it), made for the cell. */
const usersHook: Target['input'] = async (db, w) => ({
  webhookId: (await insertWebhookRow(db, w.actors.user.user.id)).id,
});

/** Your own webhook, or any as an admin; someone else's is a 404 (ids tell nothing). */
const ownOrAdmin = { user: 'ok', admin: 'ok', others: 404 } as const;

const missing = { input: async () => ({ webhookId: missingId() }), expect: notFound };

/** A dry run of a one-song file: accepted (202) and writing no song. */
const DRY_RUN = { dryRun: 'true', file: 'title,duration\r\nMatrix import,60\r\n' };

/** The rows for imports (`catalogue:write` from a key; following one, `catalogue:read`). */
export const IMPORT_ROWS: Record<string, Entry> = {
  'imports.create': {
    targets: {
      'a dry run': {
        input: same(DRY_RUN),
        expect: { admin: 'ok', artist: 'ok', otherArtist: 'ok', others: 403 },
      },
    },
  },
  'imports.get': {
    targets: {
      "user's import": {
        input: async (db, w) => ({ importId: await insertImportRow(db, w.actors.artist.user.id) }),
        expect: { artist: 'ok', admin: 'ok', others: 404 },
      },
      missing: { input: async () => ({ importId: missingId() }), expect: notFound },
    },
  },
};

/** The authorization matrix's rows for webhooks (`webhooks:write` from a key, reads included). */
export const WEBHOOK_ROWS: Record<string, Entry> = {
  'webhooks.create': {
    targets: {
      'song events': { input: same({ url: DEAD_HOOK_URL, events: ['song.*'] }), expect: { signedIn: 'ok' } },
      // User events are for admins: anyone else is refused them in words, on `events`.
      'user events': {
        input: same({ url: DEAD_HOOK_URL, events: ['user.*'] }),
        expect: { admin: 'ok', others: 422 },
      },
    },
  },
  'webhooks.list': {
    targets: {
      own: { input: same({}), expect: { signedIn: 'ok' } },
      "user's": {
        input: async (_db, w) => ({ userId: w.actors.user.user.id }),
        expect: { user: 'ok', admin: 'ok', others: 403 },
      },
      'missing user': { input: async () => ({ userId: missingId() }), expect: { admin: 404, others: 403 } },
    },
  },
  'webhooks.get': {
    targets: {
      "user's webhook": { input: usersHook, expect: ownOrAdmin },
      missing,
      malformed: { input: same({ webhookId: 'not-a-uuid' }), expect: notFound },
    },
  },
  'webhooks.update': {
    targets: {
      "user's webhook": {
        input: async (db, w) => ({ ...(await usersHook(db, w, 'user')), description: 'Changed' }),
        expect: ownOrAdmin,
      },
      missing,
    },
  },
  'webhooks.delete': { targets: { "user's webhook": { input: usersHook, expect: ownOrAdmin }, missing } },
  'webhooks.deliveries': { targets: { "user's webhook": { input: usersHook, expect: ownOrAdmin }, missing } },
  'webhooks.ping': { targets: { "user's webhook": { input: usersHook, expect: ownOrAdmin }, missing } },
  'webhooks.retryDelivery': {
    targets: {
      "user's failed delivery": {
        input: async (db, w) => {
          const hook = await insertWebhookRow(db, w.actors.user.user.id);
          return { webhookId: hook.id, deliveryId: hook.deliveryId };
        },
        expect: ownOrAdmin,
      },
      'a pending one': {
        input: async (db, w) => {
          const hook = await insertWebhookRow(db, w.actors.user.user.id);
          await db
            .updateTable('webhook_deliveries')
            .set({ status: 'pending' })
            .where('id', '=', hook.deliveryId)
            .execute();
          return { webhookId: hook.id, deliveryId: hook.deliveryId };
        },
        expect: { user: 409, admin: 409, others: 404 },
      },
      'missing delivery': {
        input: async (db, w) => ({ ...(await usersHook(db, w, 'user')), deliveryId: missingId() }),
        expect: notFound,
      },
    },
  },
};
