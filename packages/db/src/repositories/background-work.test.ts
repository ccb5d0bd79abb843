import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/index';
import { uuidv7 } from '../ids';
import { backgroundWork } from './background-work';
import { finishImport, insertImport, markQueued, markRunning } from './imports';
import { insertUser } from './users';
import { deleteWebhook, insertWebhook, updateWebhook } from './webhooks';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

describe('backgroundWork(): webhooks and imports in one probe', () => {
  it('answers each question from its own table', async () => {
    const { db } = database;
    const userId = uuidv7();
    await insertUser(db, {
      id: userId,
      username: 'u',
      email: `${userId}@example.com`,
      password_hash: 'x',
      role: 'admin',
    });
    expect(await backgroundWork(db)).toEqual({ anyWebhook: false, enabledWebhook: false, openImport: false });

    const hook = await insertWebhook(db, {
      id: uuidv7(),
      userId,
      url: 'https://example.com/hook',
      events: ['song.created'],
      description: null,
      secret: 's',
    });
    expect(await backgroundWork(db)).toEqual({ anyWebhook: true, enabledWebhook: true, openImport: false });
    await updateWebhook(db, hook.id, { enabled: false });
    expect(await backgroundWork(db)).toEqual({ anyWebhook: true, enabledWebhook: false, openImport: false });
    await deleteWebhook(db, hook.id);

    const importId = uuidv7();
    await insertImport(db, {
      id: importId,
      userId,
      apiKeyId: null,
      requestId: 'r',
      address: '127.0.0.1',
      format: 'csv',
      dryRun: false,
    });
    // Still being received: no worker is needed for it yet.
    expect((await backgroundWork(db)).openImport).toBe(false);
    await markQueued(db, importId);
    expect(await backgroundWork(db)).toEqual({ anyWebhook: false, enabledWebhook: false, openImport: true });
    await markRunning(db, importId);
    expect((await backgroundWork(db)).openImport).toBe(true);
    await finishImport(db, importId, 'succeeded', null);
    expect((await backgroundWork(db)).openImport).toBe(false);
  });
});
