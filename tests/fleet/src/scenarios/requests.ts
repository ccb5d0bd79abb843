import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely; the assertions check their shape.
type Loose = any;

export interface Answer {
  status: number;
  body: Loose;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Another API (one instance) instead of the balancer. */
  base?: string;
  forwardedFor?: string;
  /** Sent as they are (e.g. `idempotency-key`). */
  headers?: Record<string, string>;
}

export interface SignedUp {
  id: string;
  email: string;
  password: string;
  token: string;
}

/** One request of a steady load, and the statuses that count as success. */
export interface LoadRequest {
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  ok: number[];
}

export interface LoadResult {
  what: string;
  status: number;
  body: Loose;
}

export interface Requests {
  /** A request through the balancer (or to `base`), with JSON in and out. */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  signUp(tag: string): Promise<SignedUp>;
  /**
   * Steady load through the balancer at `rate` requests a second until stopped: each request is
   * made by `next(i)`.
   */
  steadyLoad(rate: number, next: (i: number) => LoadRequest): { stop(): Promise<LoadResult[]> };
}

/** The API's `/v1` as a client sees it, at `balancer`. */
export function requests(balancer: string): Requests {
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
    const res = await fetch(`${options.base ?? balancer}/v1${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  async function signUp(tag: string): Promise<SignedUp> {
    const email = `${tag}-${randomBytes(4).toString('hex')}@fleet.test`;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const created = await call('POST', '/users', { body: { username: tag, email, password } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const login = await call('POST', '/auth/login', { body: { email, password } });
    expect(login.status).toBe(200);
    return { id: created.body.id, email, password, token: login.body.accessToken };
  }

  function steadyLoad(rate: number, next: (i: number) => LoadRequest) {
    const results: LoadResult[] = [];
    const inFlight = new Set<Promise<void>>();
    let i = 0;
    const timer = setInterval(() => {
      const request = next(i++);
      const what = `${request.method} ${request.path}`;
      const sent = call(request.method, request.path, { token: request.token, body: request.body })
        .then(
          (res) => {
            results.push({ what, status: res.status, body: res.body });
            if (!request.ok.includes(res.status)) {
              process.stderr.write(`unexpected ${res.status} for ${what}: ${JSON.stringify(res.body)}\n`);
            }
          },
          (error: unknown) => {
            results.push({ what, status: 0, body: String(error) });
            process.stderr.write(`failed ${what}: ${String(error)}\n`);
          },
        )
        .finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }, 1000 / rate);
    return {
      async stop() {
        clearInterval(timer);
        await Promise.all(inFlight);
        return results;
      },
    };
  }

  return { call, signUp, steadyLoad };
}
