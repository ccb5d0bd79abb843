'use client';

import Link from 'next/link';
import { songsSearchHref } from '@/lib/site-search';
import { trpc } from '@/lib/trpc';

/** The longest text the finder takes (a list's search takes more). */
const MAX_FINDER_TEXT = 100;

/**
 * For a search of the songs that found nothing: the finder's best song for the same text, which
 * forgives a typo the list's search does not, offered as "Did you mean …?", a link to the list
 * searched for its title. Asked for only once the list came back empty; nothing is shown when
 * the finder has no song either.
 */
export function DidYouMean({ search }: { search: string }) {
  const text = search.trim();
  const guess = trpc.search.find.useQuery(
    { q: text, types: 'songs', limit: 1 },
    { enabled: text !== '' && text.length <= MAX_FINDER_TEXT, staleTime: 60_000 },
  );
  const song = guess.data?.songs?.[0];
  // The same words again would lead back to this empty list.
  if (!song || song.title.trim().toLowerCase() === text.toLowerCase()) return null;
  return (
    <>
      {' '}
      <Link href={songsSearchHref(song.title)}>
        Did you mean “<bdi>{song.title}</bdi>”?
      </Link>
    </>
  );
}
