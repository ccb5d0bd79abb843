import type { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import type { FileAnswer } from '@music/api-router';
import { addVary, negotiateEncoding } from './compression';

/**
 * A file answer (an export), written as its pieces are produced: each piece waits until the
 * client has taken the previous ones (backpressure), so memory holds one piece whatever the
 * file's size, and a client that goes away stops the export (its pieces are produced lazily and
 * are no longer asked for). gzip when the client accepts it (brotli's streaming cost is not worth
 * it here). A failure after the head was sent can no longer be an error answer: the connection is
 * cut, so the client sees an incomplete body, never a truncated file taken as whole.
 */
export async function sendFile(
  res: ServerResponse,
  answer: FileAnswer,
  headers: Record<string, string>,
  onFailure: (error: unknown) => void,
): Promise<void> {
  const out: Record<string, string> = {
    ...headers,
    'Content-Type': answer.type,
    'Content-Disposition': `attachment; filename="${answer.filename}"`,
  };
  addVary(out, 'Accept-Encoding');
  const gzip = negotiateEncoding(res.req?.headers['accept-encoding']) !== undefined;
  if (gzip) out['Content-Encoding'] = 'gzip';
  res.writeHead(200, out);
  if (res.req?.method === 'HEAD') {
    res.end();
    return;
  }
  const sink = gzip ? createGzip() : res;
  if (gzip) (sink as ReturnType<typeof createGzip>).pipe(res);
  const gone = new Promise<'gone'>((resolve) => res.once('close', () => resolve('gone')));
  try {
    for await (const chunk of answer.chunks) {
      if (res.destroyed) break;
      if (!sink.write(chunk)) {
        const drained = new Promise<'drained'>((resolve) => sink.once('drain', () => resolve('drained')));
        if ((await Promise.race([drained, gone])) === 'gone') break;
      }
    }
    sink.end();
  } catch (error) {
    onFailure(error);
    res.destroy();
  }
}
