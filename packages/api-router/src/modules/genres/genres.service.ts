import { genres } from '@music/db';
import { type AuthedContext, page } from '../../kernel';
import { type ListGenresInput, toGenre } from './genres.schema';

/** The genres in use, by name, each with its number of songs. */
export function listGenres(ctx: AuthedContext, input: ListGenresInput) {
  const search = input.search || undefined;
  return page(input, (window) => genres.listGenres(ctx.db, { search, ...window }), toGenre);
}
