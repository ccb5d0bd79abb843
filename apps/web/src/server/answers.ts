import 'server-only';
import type { ErrorCode } from '@music/api-router/schemas';
import { type NextRequest, NextResponse } from 'next/server';
import type { ApiFailure } from './api-client';
import { isSameOrigin, NO_STORE, UNREACHABLE } from './session';

/**
 * How the session routes that take a body (sign-in, sign-up) answer: in the contract's `/v1`
 * error body (`{code, message}`, `errors` on a 422, `Retry-After`), so the forms read one shape.
 */

/** A refusal of the console's own, before the API is asked. */
export function refuse(status: number, code: ErrorCode, message: string): NextResponse {
  return NextResponse.json({ code, message }, { status, headers: NO_STORE });
}

/** Far more than any sign-in or sign-up body; the API would refuse the rest anyway. */
const MAX_BODY = 8192;

/**
 * The request's body as a JSON object, or the refusal (400, 413) in the words `/v1` uses for the
 * same body. The fields themselves are the procedure's to validate: its 422 names them.
 */
export async function readJsonObject(req: NextRequest): Promise<object | NextResponse> {
  const body = await req.text();
  if (body.length > MAX_BODY) return refuse(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (body.trim() === '') return refuse(400, 'BAD_REQUEST', 'A JSON object body is required');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return refuse(400, 'BAD_REQUEST', 'The body is not valid UTF-8 JSON');
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? value
    : refuse(400, 'BAD_REQUEST', 'The body must be a JSON object');
}

/**
 * A session route's body: refused (403) from another site before it is read, else as
 * `readJsonObject` reads it.
 */
export function readSameOriginBody(req: NextRequest): Promise<object | NextResponse> | NextResponse {
  if (!isSameOrigin(req)) return refuse(403, 'FORBIDDEN', 'Cross-site requests are refused');
  return readJsonObject(req);
}

/** The API's refusal passed on; 503 when it did not answer, 502 for an answer not its own. */
export function answerFailure({ status, error }: ApiFailure): NextResponse {
  if (status === 0) return refuse(503, 'SERVICE_UNAVAILABLE', UNREACHABLE);
  if (!error) {
    return refuse(status >= 200 && status < 300 ? 502 : status, 'INTERNAL_SERVER_ERROR', 'Unexpected answer');
  }
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
  const body = {
    code: error.code,
    message: error.message,
    ...(error.code === 'VALIDATION_FAILED' ? { errors: error.errors ?? [] } : {}),
  };
  return NextResponse.json(body, { status, headers });
}
