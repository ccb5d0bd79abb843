import { Prefetched } from '@/server/prefetch';
import { PlaylistPage } from '../_components/playlist-page';

/** The record comes with the page (fetched on the server under the client's own query key). */
export default async function Page({ params }: { params: Promise<{ playlistId: string }> }) {
  const { playlistId } = await params;
  return (
    <Prefetched work={(api) => api.playlists.get.prefetch({ playlistId })}>
      <PlaylistPage />
    </Prefetched>
  );
}
