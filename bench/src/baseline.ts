import { createServer } from 'node:http';
import pg from 'pg';

/**
 * The baseline the API is measured against: plain node:http + a pg Pool, the equivalent
 * single query per request, no auth, no validation, no framework. Same pool size as the API.
 */
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 10),
  application_name: 'bench-baseline',
});
const SONG = `select s.id, s.title, s.album, s.genre, s.duration, s.release_year, s.created_at, s.updated_at,
  array(select artist_id from song_artists sa where sa.song_id = s.id order by sa.position) as artist_ids
  from songs s`;

function send(res: import('node:http').ServerResponse, status: number, body?: unknown) {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'songs' && parts[1]) {
      const { rows } = await pool.query(`${SONG} where s.id = $1`, [parts[1]]);
      return send(res, rows[0] ? 200 : 404, rows[0] ?? {});
    }
    if (parts[0] === 'songs') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const search = url.searchParams.get('search');
      const where = search ? `where s.title ilike $3 or s.album ilike $3` : '';
      const params: unknown[] = [20, (page - 1) * 20];
      if (search) params.push(`%${search}%`);
      const [data, count] = await Promise.all([
        pool.query(`${SONG} ${where} order by s.title, s.id limit $1 offset $2`, params),
        pool.query(
          `select count(*)::int as total from songs s ${where.replaceAll('$3', '$1')}`,
          search ? [params[2]] : [],
        ),
      ]);
      return send(res, 200, { data: data.rows, pagination: { page, limit: 20, total: count.rows[0].total } });
    }
    if (parts[0] === 'playlists' && parts[2] === 'songs') {
      if (req.method === 'GET') {
        const [data, count] = await Promise.all([
          pool.query(
            `${SONG} join playlist_songs ps on ps.song_id = s.id where ps.playlist_id = $1 order by ps.position limit 20`,
            [parts[1]],
          ),
          pool.query('select count(*)::int as total from playlist_songs where playlist_id = $1', [parts[1]]),
        ]);
        return send(res, 200, {
          data: data.rows,
          pagination: { page: 1, limit: 20, total: count.rows[0].total },
        });
      }
      if (req.method === 'POST') {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        const { songId } = JSON.parse(raw);
        await pool.query(
          `insert into playlist_songs (playlist_id, song_id, position)
           select $1, $2, coalesce(max(position), -1) + 1 from playlist_songs where playlist_id = $1`,
          [parts[1], songId],
        );
        return send(res, 204);
      }
      if (req.method === 'DELETE') {
        await pool.query('delete from playlist_songs where playlist_id = $1 and song_id = $2', [
          parts[1],
          parts[3],
        ]);
        return send(res, 204);
      }
    }
    send(res, 404, { code: 'NOT_FOUND' });
  } catch (error) {
    send(res, 500, { message: String(error) });
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('baseline listening\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
