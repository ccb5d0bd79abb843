import 'server-only';
import type { NextRequest } from 'next/server';
import { NextResponse } from 'next/server';
import { refuse } from './answers';
import { API_URL } from './api-client';
import { forwardedFor, NO_STORE, readTokens, UNREACHABLE } from './session';

/**
 * The console's routes for the API's files (`/v1` only: its tRPC transport takes no file and
 * answers none): an export (`GET /v1/songs/export`) and an import (`POST /v1/imports`). As the
 * tRPC proxy does, each call goes out with the session's bearer token, and the answer comes back
 * with the API's status and body, its error in the `/v1` shape (`{code, message}`). Both bodies
 * stream through, never whole in memory: the file an import sends, and the catalogue an export
 * answers. No route here refreshes the session (src/lib/session-refresh.ts says why): with only
 * the refresh cookie left they answer 401, and the browser refreshes and asks again.
 */

/** The API's own refusal of a body over its limit, in its words. */
function tooLarge(limit: number): NextResponse {
  return refuse(413, 'PAYLOAD_TOO_LARGE', `An import is at most ${Math.round(limit / (1024 * 1024))} MB`);
}

/** What an answer keeps of the API's headers: the file's type and name, and the API's hints. */
const PASSED_ON = ['content-type', 'content-disposition', 'retry-after', 'x-request-id'];

/** A request body the route passes on: its bytes, media type, declared length, and the most it may be. */
export interface FileBody {
  stream: ReadableStream<Uint8Array>;
  type: string;
  length: string | null;
  limit: number;
}

/**
 * The body as it passes, counted: past `limit` it fails, and `over()` says so. The API refuses
 * such a body too, but it then closes the connection under the upload (its unread rest must not
 * be taken for the next request), which can cut off its answer: the console says it instead.
 */
function counted({ stream, limit }: FileBody): { stream: ReadableStream<Uint8Array>; over: () => boolean } {
  let bytes = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > limit) controller.error(new Error('The request body is too large'));
      else controller.enqueue(chunk);
    },
  });
  return { stream: stream.pipeThrough(counter), over: () => bytes > limit };
}

export async function forwardFile(
  req: NextRequest,
  path: '/songs/export' | '/imports',
  body?: FileBody,
): Promise<NextResponse> {
  const { access, refresh } = readTokens(req);
  // Only the refresh cookie left (the access cookie's lifetime ended): the browser refreshes
  // first. With neither, the call goes out anonymous, and the API says who may.
  if (!access && refresh) return refuse(401, 'UNAUTHORIZED', 'The session needs refreshing');
  const headers: Record<string, string> = { accept: 'application/json', ...forwardedFor(req) };
  if (access) headers.authorization = `Bearer ${access}`;
  const requestId = req.headers.get('x-request-id');
  if (requestId) headers['x-request-id'] = requestId;
  if (body) {
    if (body.length !== null && Number(body.length) > body.limit) return tooLarge(body.limit);
    headers['content-type'] = body.type;
    if (body.length) headers['content-length'] = body.length;
  }
  const sent = body && counted(body);
  let upstream: Response;
  try {
    upstream = await fetch(`${API_URL}/v1${path}${req.nextUrl.search}`, {
      method: body ? 'POST' : 'GET',
      headers,
      ...(sent ? { body: sent.stream, duplex: 'half' } : {}),
      cache: 'no-store',
      redirect: 'manual',
      // A download cancelled, or an upload abandoned, ends the API's side too.
      signal: req.signal,
    } as RequestInit);
  } catch {
    if (body && sent?.over()) return tooLarge(body.limit);
    if (req.signal.aborted) return new NextResponse(null, { status: 499 });
    return refuse(503, 'SERVICE_UNAVAILABLE', UNREACHABLE);
  }
  const out = new Headers(NO_STORE);
  for (const name of PASSED_ON) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  return new NextResponse(upstream.body, { status: upstream.status, headers: out });
}
