import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, songRow, type TestDatabase } from '../testing/index';
import { insertSong } from './repositories/songs';
import { statement } from './sql';

const database: TestDatabase = await createTestDatabase();
afterAll(() => database.close());

describe('statement(): compiled once, parameters filled per run', () => {
  it('sends each run its own values, a parameter used twice included, and literals as built', async () => {
    const song = await insertSong(database.db, songRow('Twice Told', { duration: 200 }));
    const find = statement((db, p: { id: string; longer: number }) =>
      db
        .selectFrom('songs')
        .select([
          'title',
          sql<boolean>`duration > ${p.longer}`.as('long'),
          sql<number>`${p.longer} + 1`.as('next'),
        ])
        .where('id', '=', p.id)
        .where('title', '!=', 'nothing'),
    );
    expect((await find.run(database.db, { id: song.id, longer: 100 })).rows).toEqual([
      { title: 'Twice Told', long: true, next: 101 },
    ]);
    expect((await find.run(database.db, { id: song.id, longer: 300 })).rows).toEqual([
      { title: 'Twice Told', long: false, next: 301 },
    ]);
  });

  it('refuses a parameter spliced into the text or into a longer value, when it is built', () => {
    expect(() =>
      statement((db, p: { column: string }) => db.selectFrom('songs').select(sql.ref(p.column).as('x'))),
    ).toThrow(/compiled into the SQL text/);
    expect(() =>
      statement((db, p: { term: string }) =>
        db.selectFrom('songs').select('id').where('title', 'like', `${p.term}%`),
      ),
    ).toThrow(/inside another value/);
  });

  it('refuses a run that leaves a parameter out instead of sending null', async () => {
    const find = statement((db, p: { id: string }) =>
      db.selectFrom('songs').select('id').where('id', '=', p.id),
    );
    await expect(find.run(database.db, {} as { id: string })).rejects.toThrow(/'id' is missing/);
  });
});
