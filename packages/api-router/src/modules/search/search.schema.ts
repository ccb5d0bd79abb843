import { z } from 'zod';
import { text } from '../../schemas';
import { artistSchema } from '../artists/artists.schema';
import { playlistSchema } from '../playlists/playlists.schema';
import { songSchema } from '../songs/songs.schema';

export const SEARCH_TYPES = ['songs', 'artists', 'albums', 'playlists'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const searchInput = z.strictObject({
  q: text(1, 100).meta({
    description:
      'What was typed so far, 1 to 100 characters. Words match in any order; the last may be ' +
      'the start of a word. Letter case, accents, letter variants, punctuation and spacing do ' +
      'not count; a word of 5 to 8 letters also matches with one typo, of 9 or more with two.',
    example: 'sigur ro',
  }),
  types: z
    .string()
    .max(100)
    .optional()
    .superRefine((value, ctx) => {
      const unknown = (value ?? '')
        .split(',')
        .filter((part) => !(SEARCH_TYPES as readonly string[]).includes(part));
      if (value !== undefined && unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown types ${unknown
            .map((part) => `'${part.slice(0, 20)}'`)
            .slice(0, 5)
            .join(', ')} (any of: ${SEARCH_TYPES.join(', ')})`,
        });
      }
    })
    .meta({
      description: `Comma-separated kinds to find: ${SEARCH_TYPES.join(', ')} (default: all of them)`,
      example: 'songs,artists',
    }),
  limit: z
    .number()
    .int()
    .min(1)
    .max(20)
    .default(5)
    .meta({ description: 'At most this many of each kind, 1 to 20' }),
});
export type SearchInput = z.infer<typeof searchInput>;

export const albumSchema = z
  .object({
    name: z.string().min(1).max(200).meta({ description: 'As most of its songs spell it' }),
    artistIds: z
      .array(z.uuid())
      .max(1000)
      .meta({ description: 'Every artist of its songs, the first artist first (at most 1,000)' }),
    songCount: z.number().int().min(1),
  })
  .meta({
    id: 'Album',
    description: 'The songs sharing an album name (letter case and accents aside) and a first artist',
  });

export const searchResultSchema = z
  .object({
    songs: z.array(songSchema).max(20).optional(),
    artists: z.array(artistSchema).max(20).optional(),
    albums: z.array(albumSchema).max(20).optional(),
    playlists: z.array(playlistSchema).max(20).optional(),
  })
  .meta({
    id: 'SearchResult',
    description: 'The kinds asked for, each best first: not a list, so no pagination',
  });
export type SearchResult = z.infer<typeof searchResultSchema>;
