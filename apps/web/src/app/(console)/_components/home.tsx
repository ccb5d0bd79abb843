'use client';

import Link from 'next/link';
import { useOwnArtists } from '@/components/catalogue/artists';
import { PageHeader } from '@/components/shell/guard';
import { useMe } from '@/components/shell/session';
import { Notice, QueryView } from '@/components/ui';
import { PageTitle } from '@/components/ui/page-title';
import { homeInputs } from '@/lib/home';
import { type Playlist, trpc } from '@/lib/trpc';
import type { ApiHealth } from '@/server/health';
import { AdminHome } from './admin-home';
import { CountCard, counted, HomeSection, SongRows, totalOf } from './home-parts';
import './home.css';

function PlaylistRows({ playlists, byOwner }: { playlists: Playlist[]; byOwner?: boolean }) {
  const me = useMe();
  return (
    <ul className="rows">
      {playlists.map((playlist) => (
        <li key={playlist.id} className="row">
          <span className="grow">
            <Link href={`/playlists/${playlist.id}`}>
              <bdi>{playlist.name}</bdi>
            </Link>{' '}
            <span className="muted">
              · {counted(playlist.songCount, 'song', 'songs')}
              {byOwner && playlist.userId === me.id && ' · yours'}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Each role's home page (the data comes prefetched with the page; see page.tsx). */
export function Home({ health }: { health: ApiHealth | undefined }) {
  const me = useMe();
  return (
    <>
      <PageTitle name="Home" />
      <PageHeader title="Home" />
      <p className="home-greeting">
        Signed in as <bdi>{me.username}</bdi>.
      </p>
      {me.role === 'admin' ? (
        <AdminHome health={health} />
      ) : me.role === 'artist' ? (
        <ArtistHome />
      ) : (
        <ListenerHome />
      )}
    </>
  );
}

/** An artist account: its songs, the public playlists featuring them, and its profile. */
function ArtistHome() {
  const own = useOwnArtists();
  const artist = own.data?.data[0];
  const artistId = artist?.id ?? '';
  const songs = trpc.songs.list.useQuery(homeInputs.artistSongs(artistId), { enabled: artistId !== '' });
  const featuring = trpc.playlists.list.useQuery(homeInputs.featuring(artistId), {
    enabled: artistId !== '',
  });
  if (own.isPending) return <QueryView query={own}>{() => null}</QueryView>;
  if (!artist) {
    return (
      <>
        <Notice>Your account is not linked to an artist yet. Ask an admin to link it.</Notice>
        <ul className="count-cards">
          <CountCard href="/songs?tab=all" one="song" many="Songs in the catalogue" />
          <CountCard href="/playlists" one="playlist" many="My playlists" />
        </ul>
      </>
    );
  }
  return (
    <>
      <ul className="count-cards" aria-label="Your figures">
        <CountCard href="/songs" count={totalOf(songs)} one="song of yours" many="songs of yours" />
        <CountCard
          href="/artists/mine"
          count={totalOf(featuring)}
          one="public playlist features you"
          many="public playlists feature you"
          hint="My artist profile"
        />
        <CountCard href="/playlists" one="playlist" many="My playlists" />
      </ul>
      <div className="home-columns">
        <HomeSection title="Your latest songs" more={{ href: '/songs', label: 'All my songs' }}>
          <QueryView query={songs} isEmpty={(d) => d.data.length === 0} empty="No songs of yours yet.">
            {(data) => (
              <SongRows
                songs={data.data}
                detail={(song) => [song.album, song.releaseYear].filter(Boolean).join(' · ')}
              />
            )}
          </QueryView>
        </HomeSection>
        <HomeSection title="Public playlists featuring you">
          <QueryView
            query={featuring}
            isEmpty={(d) => d.data.length === 0}
            empty="No public playlist holds a song of yours yet."
          >
            {(data) => <PlaylistRows playlists={data.data} byOwner />}
          </QueryView>
        </HomeSection>
      </div>
    </>
  );
}

/** A listener: the newest songs of the catalogue and their own playlists. */
function ListenerHome() {
  const me = useMe();
  const songs = trpc.songs.list.useQuery(homeInputs.newSongs);
  const playlists = trpc.playlists.list.useQuery(homeInputs.myPlaylists(me.id));
  return (
    <>
      <ul className="count-cards" aria-label="Your figures">
        <CountCard
          href="/playlists"
          count={totalOf(playlists)}
          one="playlist of yours"
          many="playlists of yours"
        />
        <CountCard
          href="/songs"
          count={totalOf(songs)}
          one="song in the catalogue"
          many="songs in the catalogue"
        />
        <CountCard href="/artists" one="artist" many="Artists" hint="Browse by artist" />
      </ul>
      <div className="home-columns">
        <HomeSection
          title="New in the catalogue"
          more={{ href: '/songs?sort=-createdAt', label: 'All songs, newest first' }}
        >
          <QueryView query={songs} isEmpty={(d) => d.data.length === 0} empty="No songs yet.">
            {(data) => (
              <SongRows
                songs={data.data}
                detail={(song) => (song.artists ?? []).map((artist) => artist.name).join(', ')}
              />
            )}
          </QueryView>
        </HomeSection>
        <HomeSection title="Your playlists" more={{ href: '/playlists', label: 'All my playlists' }}>
          <QueryView
            query={playlists}
            isEmpty={(d) => d.data.length === 0}
            empty={
              <>
                You have no playlists yet. <Link href="/playlists">Make one</Link>.
              </>
            }
          >
            {(data) => <PlaylistRows playlists={data.data} />}
          </QueryView>
        </HomeSection>
      </div>
    </>
  );
}
