import { genres } from '@music/db';
import { type AuthedContext, listPage } from '../../kernel';
import { type ListGenresInput, toGenre } from './genres.schema';

/**
 * The genres in use, by name, each with its number of songs; by page or by cursor. A genre has no
 * id: in cursor mode its lower-cased name stands for one (unique in the list, as the order is).
 */
export function listGenres(ctx: AuthedContext, input: ListGenresInput) {
  const search = input.search || undefined;
  return listPage(
    input,
    'genres',
    [],
    {
      byOffset: (window) => genres.listGenres(ctx.db, { search, ...window }),
      after: async (window) => {
        const { rows, next } = await genres.listGenresAfter(ctx.db, {
          search,
          limit: window.limit,
          after: window.after?.id ?? null,
        });
        return { rows, next: next === null ? null : { values: [], id: next } };
      },
    },
    toGenre,
    (id) => id.length > 0 && id.length <= 200,
  );
}
