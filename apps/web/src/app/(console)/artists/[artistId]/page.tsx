import { Prefetched } from '@/server/prefetch';
import { ArtistPage } from '../_components/artist-page';

/** The record comes with the page (fetched on the server under the client's own query key). */
export default async function Page({ params }: { params: Promise<{ artistId: string }> }) {
  const { artistId } = await params;
  return (
    <Prefetched work={(api) => api.artists.get.prefetch({ artistId })}>
      <ArtistPage />
    </Prefetched>
  );
}
