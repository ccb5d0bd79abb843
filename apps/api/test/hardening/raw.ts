import { connect } from 'node:net';

export interface RawResponse {
  /** 0 when the server closed the socket without answering. */
  status: number;
  head: string;
  body: string;
  /** Everything the server sent, every answer on the connection included. */
  text: string;
  /** Milliseconds from connecting to the socket closing (or the answer being complete). */
  ms: number;
}

/**
 * Sends bytes as they are on a fresh socket (`Connection: close` is up to the caller) and
 * resolves with what came back once the server closes the socket or `timeoutMs` passes.
 * `chunks` with a `delayMs` are written one after another with that pause (a slow client).
 */
export function rawRequest(
  url: string,
  payload: string | Buffer | Array<string | Buffer>,
  options: { timeoutMs?: number; delayMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const chunks = Array.isArray(payload) ? payload : [payload];
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body, text, ms: Date.now() - started });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5_000);
    socket.on('data', (data) => received.push(data));
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', async () => {
      for (const [index, chunk] of chunks.entries()) {
        if (done || socket.destroyed) return;
        if (index > 0 && options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        if (done || socket.destroyed) return;
        socket.write(chunk);
      }
    });
  });
}
