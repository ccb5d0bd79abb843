import type { GenreRow } from '@music/db';
import { z } from 'zod';
import { cursorListOf, listQuery, text } from '../../schemas';

export const genreSchema = z
  .object({
    // A song's genre: the bounds its input enforces.
    name: z.string().min(1).max(50).meta({ description: 'The genre, as most of its songs spell it' }),
    songCount: z.number().int().min(1).meta({
      description: 'How many songs have this genre (letter case aside): what `GET /songs?genre=` totals',
    }),
  })
  .meta({ id: 'Genre' });

export type Genre = z.infer<typeof genreSchema>;

export function toGenre(row: GenreRow): Genre {
  return { name: row.name, songCount: row.song_count };
}

export const listGenresInput = z.strictObject({
  search: text(0, 200).optional().meta({ description: 'Case-insensitive substring of the name' }),
  ...listQuery,
});
export type ListGenresInput = z.infer<typeof listGenresInput>;

export const genreListSchema = cursorListOf(genreSchema).meta({ id: 'GenreList' });
