import type { NextRequest } from 'next/server';
import { MAX_IMPORT_BYTES } from '@/lib/imports';
import { refuse } from '@/server/answers';
import { forwardFile } from '@/server/file-proxy';
import { isSameOrigin } from '@/server/session';

/**
 * An import (`?dryRun=true|false`): the file, as the request's body, passed on to
 * `POST /v1/imports` with its Content-Type as it arrives (never whole in memory; the API takes
 * up to 100 MB), and the API's answer back: 202 and the import, or its refusal. The console's
 * proxy (src/proxy.ts) is not run for this route: it would hold the body in memory, and cut it
 * after 10 MB.
 */
export function POST(req: NextRequest) {
  if (!isSameOrigin(req)) return refuse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  if (!req.body) return refuse(400, 'BAD_REQUEST', 'The file is empty');
  return forwardFile(req, '/imports', {
    stream: req.body,
    type: req.headers.get('content-type') ?? '',
    length: req.headers.get('content-length'),
    limit: MAX_IMPORT_BYTES,
  });
}
