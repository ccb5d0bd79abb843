import { HydrationBoundary } from '@tanstack/react-query';
import { prefetched } from '@/server/prefetch';
import { SongPage } from '../_components/song-page';

/** The song comes with the page (fetched on the server under the client's own query key). */
export default async function Page({ params }: { params: Promise<{ songId: string }> }) {
  const { songId } = await params;
  const state = await prefetched((api) => api.songs.get.prefetch({ songId }));
  return (
    <HydrationBoundary state={state}>
      <SongPage />
    </HydrationBoundary>
  );
}
