import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, type ErrorCode } from '@music/api-router';

export const MAX_BODY_BYTES = 1024 * 1024;
const NO_BODY = Buffer.alloc(0);

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export function sendNoContent(res: ServerResponse, headers: Record<string, string> = {}) {
  res.writeHead(204, headers);
  res.end();
}

/** The contract's error body: `{code, message}`, plus `errors` on 422 only. */
export function sendError(res: ServerResponse, error: AppError, headers: Record<string, string> = {}) {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.code === 'VALIDATION_FAILED') body.errors = error.errors ?? [];
  const extra: Record<string, string> = { ...headers };
  if (error.retryAfter !== undefined) extra['Retry-After'] = String(error.retryAfter);
  sendJson(res, error.status, body, extra);
}

export function fail(code: ErrorCode, message: string): AppError {
  return new AppError(code, message);
}

/**
 * Reads the body, refusing more than MAX_BODY_BYTES (413) before reading it all when the
 * declared length already says so. Resolves to the raw bytes.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  // Without either header an HTTP/1.1 request has no body (RFC 9112, 6.3): most GETs, answered
  // without waiting a turn for the stream's 'end'. Node discards the unread stream on its own.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(NO_BODY);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES)
    return Promise.reject(fail('PAYLOAD_TOO_LARGE', 'The request body exceeds 1 MiB'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(fail('PAYLOAD_TOO_LARGE', 'The request body exceeds 1 MiB'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A valid incoming X-Request-Id is echoed; anything else is replaced with a fresh one. */
export function requestIdOf(req: IncomingMessage, generate: () => string): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : generate();
}
