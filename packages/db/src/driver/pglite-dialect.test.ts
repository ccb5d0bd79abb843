import { afterAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../client';
import { uuidv7 } from '../ids';
import { insertArtist } from '../repositories/artists';

const database: Database = await createDatabase({});
afterAll(() => database.close());
await database.migrate();

it('quotes savepoint names: a name cannot end the statement', async () => {
  const name = 'sp"; drop table songs; --';
  const trx = await database.db.startTransaction().execute();
  try {
    const kept = uuidv7();
    await insertArtist(trx, { id: kept, name: 'Kept', bio: null, user_id: null });
    const saved = await trx.savepoint(name).execute();
    await insertArtist(saved, { id: uuidv7(), name: 'Undone', bio: null, user_id: null });
    const restored = await saved.rollbackToSavepoint(name).execute();
    await (await restored.releaseSavepoint(name).execute()).commit().execute();
    const names = await database.db.selectFrom('artists').select('name').execute();
    expect(names).toEqual([{ name: 'Kept' }]);
    expect(await database.db.selectFrom('songs').select('id').execute()).toEqual([]);
  } catch (error) {
    await trx.rollback().execute();
    throw error;
  }
});
