import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook receiver on loopback: records each delivery's `webhook-id` and event, answers 204. */
export async function startReceiver() {
  const received: Array<{
    webhookId: string;
    event: { id: string; type: string; resource: { id: string } };
  }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        webhookId: String(req.headers['webhook-id']),
        event: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
