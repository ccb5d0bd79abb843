import type { NextRequest } from 'next/server';
import { forwardFile } from '@/server/file-proxy';

/**
 * The whole catalogue as a file (`?format=csv` or `ndjson`): `GET /v1/songs/export` with the
 * session's token, its answer streamed back as it comes, with its Content-Type and
 * Content-Disposition, so a plain download link saves it under the API's name for it.
 */
export function GET(req: NextRequest) {
  return forwardFile(req, '/songs/export');
}
