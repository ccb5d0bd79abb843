import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers the next request: a status, or no answer at all (`hang`). */
export type Answer = number | 'hang';

/**
 * A webhook receiver on loopback, as an integrator would run one: it records every request and
 * answers as told (`answers` are used up in order, then `otherwise`), so a test makes it fail,
 * time out and recover.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: Answer[] = [];
  let otherwise: Answer = 204;
  const hanging = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = answers.shift() ?? otherwise;
      if (answer === 'hang') {
        const end = () => res.destroy();
        hanging.add(end);
        res.on('close', () => hanging.delete(end));
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer} ${'x'.repeat(2000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Answers for the next requests, in order. */
    answer(...next: Answer[]) {
      answers.push(...next);
    },
    /** The answer once the queued ones are used up. */
    answerOtherwise(answer: Answer) {
      otherwise = answer;
    },
    /** The bodies received, parsed, verified with `secret` by the standardwebhooks library (throws if one is not). */
    verified(secret: string) {
      const verifier = new Webhook(secret);
      return received.map((r) => ({
        id: String(r.headers['webhook-id']),
        event: verifier.verify(r.body, r.headers as Record<string, string>) as {
          id: string;
          type: string;
          at: string;
          resource: { type: string; id: string };
          data: Record<string, unknown>;
        },
      }));
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `done()` holds (checked every 50 ms), or fails after `ms`. */
export async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
