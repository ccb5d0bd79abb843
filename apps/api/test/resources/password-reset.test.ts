import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { trpcOf } from '../hardening/support';
import { startTestApi, uniqueEmail } from '../support/harness';
import { startTestSmtp } from '../support/smtp';

/**
 * Account recovery over HTTP (version 1.2): a reset link mailed through a real SMTP server, the
 * admin's link, and the confirmation; the same answer, in about the same time, whether an email
 * has an account; the limits per email and per address; the welcome mail of a sign-up.
 */
const smtp = await startTestSmtp();
const api = await startTestApi({ SMTP_URL: smtp.url, PASSWORD_RESETS_PER_QUARTER_HOUR: 5 });
const trpc = trpcOf(api);
afterAll(async () => {
  await api.close();
  await smtp.close();
});

let addresses = 0;
/** A client address of its own (the tests talk through a trusted loopback proxy). */
const address = () => ({ 'x-forwarded-for': `198.51.100.${++addresses}` });

const requestReset = (email: string, headers = address()) =>
  api.request('POST', '/auth/password-reset', { body: { email }, headers });

/** The token of the newest reset link mailed to `email`. */
async function mailedToken(email: string): Promise<string> {
  const mail = await smtp.waitFor(email, /reset/i);
  const link = /(https:\/\/console\.test\.example\/reset-password#token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  return new URL(link!).hash.slice('#token='.length);
}

describe('POST /v1/auth/password-reset and /confirm', () => {
  it('mails a single-use link; the new password works and every session ends', async () => {
    const user = await api.signUp();
    const asked = await requestReset(user.email.toUpperCase());
    expect(asked.status).toBe(202);
    expect(asked.text).toBe('');
    const token = await mailedToken(user.email);
    const mail = smtp.received.find((m) => m.to.includes(user.email) && /reset/i.test(m.subject))!;
    expect(mail.from).toContain('no-reply@test.example');
    expect(mail.text).toContain('30 minutes');

    const confirmed = await api.request('POST', '/auth/password-reset/confirm', {
      body: { token, password: 'a-brand-new-password' },
    });
    expect(confirmed.status).toBe(204);
    expect(confirmed.text).toBe('');
    expect((await api.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    const signIn = (password: string) =>
      api.request('POST', '/auth/login', { body: { email: user.email, password } });
    expect((await signIn(user.password)).status).toBe(401);
    expect((await signIn('a-brand-new-password')).status).toBe(200);

    // Used once: a second confirmation is a 422 on `token`, and changes nothing.
    const again = await api.request('POST', '/auth/password-reset/confirm', {
      body: { token, password: 'yet-another-password' },
    });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([{ field: 'token', message: expect.any(String) }]);
    expect((await signIn('a-brand-new-password')).status).toBe(200);
  });

  it('answers an unknown email the same way, mails nothing and stores nothing', async () => {
    const email = uniqueEmail('nobody');
    const before = await api.database.db
      .selectFrom('password_resets')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const asked = await requestReset(email);
    expect([asked.status, asked.text]).toEqual([202, '']);
    await expect(smtp.waitFor(email, /./, 1_500)).rejects.toThrow(/no mail/);
    const after = await api.database.db
      .selectFrom('password_resets')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('takes about the same time for an email with an account as for one without', async () => {
    const user = await api.signUp();
    const durations = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 4; i++) {
      for (const kind of ['known', 'unknown'] as const) {
        const started = performance.now();
        const res = await requestReset(kind === 'known' ? user.email : uniqueEmail('nobody'));
        durations[kind].push(performance.now() - started);
        expect(res.status).toBe(202);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [known, unknown] = [median(durations.known), median(durations.unknown)];
    // The same statements on both paths and the mail in the background; an SMTP exchange in the
    // request would take several times as long.
    expect(Math.abs(known - unknown), `known ${known} ms, unknown ${unknown} ms`).toBeLessThan(
      Math.max(15, 0.5 * Math.max(known, unknown)),
    );
  });

  it('refuses unknown, malformed and expired tokens with 422 on token; a short password on password', async () => {
    const user = await api.signUp();
    await requestReset(user.email);
    const token = await mailedToken(user.email);
    const confirm = (body: object) => api.request('POST', '/auth/password-reset/confirm', { body });
    for (const bad of ['unknown-token', 'x'.repeat(512)]) {
      const res = await confirm({ token: bad, password: 'a-good-password' });
      expect([res.status, res.body.errors?.[0]?.field]).toEqual([422, 'token']);
    }
    expect((await confirm({ token, password: 'short' })).body.errors).toEqual([
      { field: 'password', message: expect.any(String) },
    ]);
    await sql`update password_resets set expires_at = now() - interval '1 second'`.execute(api.database.db);
    const expired = await confirm({ token, password: 'a-good-password' });
    expect([expired.status, expired.body.errors?.[0]?.field]).toEqual([422, 'token']);
  });

  it('takes 5 requests a quarter hour per email and per address, whether the email has an account or not', async () => {
    const user = await api.signUp();
    for (const email of [user.email, uniqueEmail('nobody')]) {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await requestReset(email)).status);
      expect(statuses, email).toEqual([202, 202, 202, 202, 202, 429]);
      const refused = await requestReset(email);
      expect(refused.body.code).toBe('TOO_MANY_REQUESTS');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    }
    const from = address();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestReset(uniqueEmail('spray'), from)).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('serves /trpc the same: auth.requestPasswordReset and auth.resetPassword', async () => {
    const user = await api.signUp();
    const asked = await trpc.request('POST', '/auth.requestPasswordReset', {
      body: { email: user.email },
      headers: address(),
    });
    expect(asked.status).toBe(200);
    const token = await mailedToken(user.email);
    const done = await trpc.call('auth.resetPassword', { token, password: 'via-trpc-password' });
    expect(done.status).toBe(200);
    const signIn = await api.request('POST', '/auth/login', {
      body: { email: user.email, password: 'via-trpc-password' },
    });
    expect(signIn.status).toBe(200);
  });
});

describe('POST /v1/users/{userId}/password-reset (admins)', () => {
  it('answers a link to hand over, valid 30 minutes, that sets the password once', async () => {
    const [admin, user] = [await api.signUp('admin'), await api.signUp()];
    const made = await api.request('POST', `/users/${user.id}/password-reset`, { token: admin.token });
    expect(made.status).toBe(201);
    expect(made.body.url).toMatch(
      /^https:\/\/console\.test\.example\/reset-password#token=[A-Za-z0-9_-]{43}$/,
    );
    const minutes = (Date.parse(made.body.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30);
    const token = new URL(made.body.url).hash.slice('#token='.length);
    const done = await api.request('POST', '/auth/password-reset/confirm', {
      body: { token, password: 'handed-over-password' },
    });
    expect(done.status).toBe(204);
    expect((await api.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    // The admin's session is not the user's: it goes on.
    expect((await api.request('GET', '/auth/me', { token: admin.token })).status).toBe(200);
  });

  it('is for admins only, whatever the id; a missing user is 404 to an admin', async () => {
    const [admin, user] = [await api.signUp('admin'), await api.signUp()];
    for (const id of [user.id, admin.id, '01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02']) {
      const res = await api.request('POST', `/users/${id}/password-reset`, { token: user.token });
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    const missing = await api.request('POST', '/users/01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02/password-reset', {
      token: admin.token,
    });
    expect(missing.status).toBe(404);
    expect((await trpc.call('users.passwordResetLink', { userId: user.id }, user.token)).status).toBe(403);
    expect((await trpc.call('users.passwordResetLink', { userId: user.id }, admin.token)).status).toBe(200);
  });
});

describe('sign-up', () => {
  it('mails a welcome to the new account’s address, naming the console', async () => {
    const email = uniqueEmail('welcome');
    const created = await api.request('POST', '/users', {
      body: { username: 'Newcomer', email, password: 'welcome-password' },
    });
    expect(created.status).toBe(201);
    const mail = await smtp.waitFor(email, /welcome/i);
    expect(mail.text).toContain('Hello Newcomer');
    expect(mail.text).toContain('https://console.test.example/sign-in');
  });
});
