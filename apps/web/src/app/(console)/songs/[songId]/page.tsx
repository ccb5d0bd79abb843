import { Prefetched } from '@/server/prefetch';
import { SongPage } from '../_components/song-page';

/** The record comes with the page (fetched on the server under the client's own query key). */
export default async function Page({ params }: { params: Promise<{ songId: string }> }) {
  const { songId } = await params;
  return (
    <Prefetched work={(api) => api.songs.get.prefetch({ songId })}>
      <SongPage />
    </Prefetched>
  );
}
