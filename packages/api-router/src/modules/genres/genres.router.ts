import { authedProcedure, rest, router } from '../../trpc';
import { genreListSchema, listGenresInput } from './genres.schema';
import * as genres from './genres.service';

export const genresRouter = router({
  list: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/genres',
        tag: 'genres',
        summary:
          'List the genres in use, ordered by name (regardless of case), each with its number of songs',
        description:
          'Genres are told apart case-insensitively, as the `genre` filter of `GET /songs` matches ' +
          'them: each is named by its most common spelling. `search` matches the name ' +
          '(case-insensitive substring).',
      }),
    )
    .input(listGenresInput)
    .output(genreListSchema)
    .query(({ ctx, input }) => genres.listGenres(ctx, input)),
});
