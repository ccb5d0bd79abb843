import { authedProcedure, rest, router } from '../../trpc';
import { searchInput, searchResultSchema } from './search.schema';
import * as finder from './search.service';

export const searchRouter = router({
  find: authedProcedure
    .meta(
      rest({
        method: 'GET',
        path: '/search',
        tag: 'search',
        summary: 'Find songs, artists, albums and playlists as you type',
        description:
          'The best few of each kind, best first: names that are the term, then names starting ' +
          'with it, then names with a word starting with it, then other matches (for songs: the ' +
          'album or an artist), each by popularity (playlists holding the song; for an artist, ' +
          'its songs), then name; then the matches with a typo. Playlists are the public ones ' +
          'and your own. A finder, not a list: no pages.',
      }),
    )
    .input(searchInput)
    .output(searchResultSchema)
    .query(({ ctx, input }) => finder.search(ctx, input)),
});
