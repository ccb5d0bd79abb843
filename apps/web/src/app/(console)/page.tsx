import { HydrationBoundary } from '@tanstack/react-query';
import { homeInputs } from '@/lib/home';
import { type ApiHealth, apiHealth } from '@/server/health';
import { prefetched } from '@/server/prefetch';
import { Home } from './_components/home';

/**
 * Each role's home: its counts, what changed lately and the ways on. Its data comes with the
 * page (asked on the server under the browser's own query keys), so it opens whole.
 */
export default async function Page() {
  let health: ApiHealth | undefined;
  const state = await prefetched(async (api) => {
    const me = await api.auth.me.fetch().catch(() => null);
    if (!me) return;
    const { counts } = homeInputs;
    if (me.role === 'admin') {
      [health] = await Promise.all([
        apiHealth(),
        api.songs.list.prefetch(counts),
        api.artists.list.prefetch(counts),
        api.playlists.list.prefetch(counts),
        api.users.list.prefetch(counts),
        api.auditEvents.list.prefetch(homeInputs.recentActivity),
      ]);
    } else if (me.role === 'artist') {
      const own = await api.artists.list.fetch(homeInputs.ownArtists(me.id)).catch(() => null);
      const artistId = own?.data[0]?.id;
      if (artistId) {
        await Promise.all([
          api.songs.list.prefetch(homeInputs.artistSongs(artistId)),
          api.playlists.list.prefetch(homeInputs.featuring(artistId)),
        ]);
      }
    } else {
      await Promise.all([
        api.songs.list.prefetch(homeInputs.newSongs),
        api.playlists.list.prefetch(homeInputs.myPlaylists(me.id)),
      ]);
    }
  });
  return (
    <HydrationBoundary state={state}>
      <Home health={health} />
    </HydrationBoundary>
  );
}
