import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/harness';
import { codeOf, errorShapeOk } from './support';
import { TRANSPORTS, uniqueAddress, useTokenRig } from './token-rig';

/**
 * Sign-in attacks on both transports and two instances: account enumeration (by answer and by
 * time), throttling per email and per client address, and batching many attempts into one call.
 */

const { rig, login } = useTokenRig({ LOGIN_MAX_FAILURES_PER_EMAIL: 6, LOGIN_MAX_FAILURES_PER_ADDRESS: 6 });

describe('login: no account enumeration, throttling on both transports and instances', () => {
  it('gives identical statuses and bodies for an unknown email and a wrong password on /trpc', async () => {
    const user = await rig.api.signUp();
    const wrong = await login('trpc', { email: user.email, password: 'not-the-password' });
    const unknown = await login('trpc', { email: uniqueEmail('nobody'), password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
    expect(unknown.headers.get('content-type')).toBe(wrong.headers.get('content-type'));
    // Upper-cased known email: still the same answer (and no hint it exists).
    const upper = await login('trpc', { email: user.email.toUpperCase(), password: 'not-the-password' });
    expect(upper.text).toBe(wrong.text);
  });

  it('takes about the same time for an unknown email as for a wrong password', async () => {
    const user = await rig.api.signUp();
    const durations = { wrong: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 5; i++) {
      for (const kind of ['wrong', 'unknown'] as const) {
        const email = kind === 'wrong' ? user.email : uniqueEmail('nobody');
        const started = performance.now();
        const res = await login('v1', { email, password: 'not-the-password' });
        durations[kind].push(performance.now() - started);
        expect(res.status).toBe(401);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [wrong, unknown] = [median(durations.wrong), median(durations.unknown)];
    // Both verify an argon2 hash (a real one or a dummy); skipping it would make one ~20x faster.
    expect(
      Math.min(wrong, unknown) / Math.max(wrong, unknown),
      `wrong ${wrong} ms, unknown ${unknown} ms`,
    ).toBeGreaterThan(0.4);
  });

  it('throttles an email on /trpc with 429 and Retry-After, counting failures from both transports', async () => {
    const user = await rig.api.signUp();
    for (let i = 0; i < 6; i++) {
      const res = await login(
        i % 2 ? 'trpc' : 'v1',
        { email: user.email, password: 'wrong-password' },
        uniqueAddress(),
        i % 3 ? 'main' : 'sibling',
      );
      expect(res.status).toBe(401);
    }
    const blocked = await login('trpc', { email: user.email, password: user.password });
    expect(blocked.status).toBe(429);
    expect(codeOf(blocked)).toBe('TOO_MANY_REQUESTS');
    expect(errorShapeOk('trpc', blocked)).toBe(true);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(blocked.body)).not.toContain('accessToken');
    // An upper-cased variant of the email is the same email.
    const variant = await login('v1', { email: ` ${user.email.toUpperCase()} `, password: user.password });
    expect(variant.status).toBe(429);
  });

  it('throttles one client address across emails and across two instances', async () => {
    const address = uniqueAddress();
    for (let i = 0; i < 6; i++) {
      const res = await login(
        i % 2 ? 'trpc' : 'v1',
        { email: uniqueEmail('spray'), password: 'wrong-password' },
        address,
        i < 3 ? 'main' : 'sibling',
      );
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    for (const which of ['main', 'sibling'] as const) {
      for (const transport of TRANSPORTS) {
        const res = await login(
          transport,
          { email: uniqueEmail('spray'), password: 'wrong-password' },
          address,
          which,
        );
        expect(res.status, `${transport} ${which}`).toBe(429);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    // A real account signing in from that address is refused too; from another address it is not.
    const user = await rig.api.signUp();
    expect((await login('v1', { email: user.email, password: user.password }, address)).status).toBe(429);
    expect(
      (await login('trpc', { email: user.email, password: user.password }, uniqueAddress())).status,
    ).toBe(200);
  });

  it('refuses batched calls on /trpc with 400 and comma-joined paths with 404, by GET and by POST', async () => {
    const user = await rig.api.signUp();
    const attempts = [
      rig.trpc.request('GET', `/auth.me,auth.me?batch=1&input=${encodeURIComponent('{}')}`, {
        token: user.token,
      }),
      rig.trpc.request('POST', '/auth.login?batch=1', {
        body: { 0: { email: user.email, password: 'wrong-password' } },
      }),
      rig.trpc.request('POST', '/auth.login,auth.login', {
        body: { email: user.email, password: 'wrong-password' },
      }),
    ];
    const answers = await Promise.all(attempts);
    expect(answers.map((res) => res.status)).toEqual([400, 400, 404]);
    for (const res of answers) {
      expect(errorShapeOk('trpc', res), res.text).toBe(true);
      expect(JSON.stringify(res.body)).not.toContain('accessToken');
    }
  });
});
