import { describe, expect, it } from 'vitest';
import { fake, request, setCookies, startFakeApi, USER } from '../../test/fake-api';

startFakeApi();

describe('a sign-in over a session replaces it', () => {
  const signIn = (password: string) =>
    fake.sessionRoute.POST(
      request('/api/session', {
        method: 'POST',
        body: JSON.stringify({ email: 'admin@console.test', password }),
        cookies: { mc_access: 'access-old', mc_refresh: 'refresh-old' },
      }),
    );

  it('ends the old session on the API once the new one is made', async () => {
    const res = await signIn('right');
    expect(res.status).toBe(200);
    expect(fake.calls.map((c) => [c.path, c.authorization])).toEqual([
      ['/trpc/auth.login', undefined],
      ['/trpc/auth.logout', 'Bearer access-old'],
    ]);
    expect(setCookies(res).mc_access).toMatchObject({ value: 'access-new' });
  });

  it('keeps the old session when the password is refused', async () => {
    const res = await signIn('wrong');
    expect(res.status).toBe(401);
    expect(fake.calls.map((c) => c.path)).toEqual(['/trpc/auth.login']);
    expect(setCookies(res)).toEqual({});
  });
});

describe('sign-up: the account through the public users.create, then signed in', () => {
  const signUp = (body: object, cookies?: Record<string, string>) =>
    fake.signUpRoute.POST(
      request('/api/session/sign-up', {
        method: 'POST',
        body: JSON.stringify(body),
        ...(cookies ? { cookies } : {}),
        headers: { 'x-forwarded-for': '203.0.113.9' },
      }),
    );
  const NEW = { username: 'Nia', email: 'nia@console.test', password: 'right' };

  it('makes the account anonymously, signs it in and sets the cookies (201)', async () => {
    const res = await signUp(NEW, { mc_access: 'access-old' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ user: USER });
    expect(
      fake.calls.map((c) => [c.path, c.authorization, c.forwardedFor, JSON.parse(c.body || 'null')]),
    ).toEqual([
      // Never with the signed-in caller's token: a sign-up has no one's rights.
      ['/trpc/users.create', undefined, '203.0.113.9', NEW],
      ['/trpc/auth.login', undefined, '203.0.113.9', { email: NEW.email, password: NEW.password }],
      ['/trpc/auth.logout', 'Bearer access-old', undefined, null],
    ]);
    const cookies = setCookies(res);
    expect(cookies.mc_access).toMatchObject({ value: 'access-new', httpOnly: true });
    expect(cookies.mc_refresh).toMatchObject({ value: 'refresh-new', httpOnly: true });
  });

  it("passes the API's refusal on and signs nobody in", async () => {
    const res = await signUp({ ...NEW, email: 'taken@console.test' });
    expect([res.status, await res.json()]).toEqual([
      409,
      { code: 'CONFLICT', message: 'CONFLICT said the API' },
    ]);
    expect(fake.calls.map((c) => c.path)).toEqual(['/trpc/users.create']);
    expect(setCookies(res)).toEqual({});
  });

  it('says the account is made but not signed in when the sign-in then fails', async () => {
    const res = await signUp({ ...NEW, password: 'refused-at-sign-in' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ user: { email: NEW.email }, signedIn: false });
    expect(setCookies(res)).toEqual({});
  });

  it('refuses cross-site calls and bodies that are not JSON objects, without asking the API', async () => {
    const cross = await fake.signUpRoute.POST(
      request('/api/session/sign-up', {
        method: 'POST',
        body: JSON.stringify(NEW),
        origin: 'https://evil.example',
      }),
    );
    expect(cross.status).toBe(403);
    for (const body of ['', '{"email":', '[1]']) {
      const res = await fake.signUpRoute.POST(request('/api/session/sign-up', { method: 'POST', body }));
      expect(res.status).toBe(400);
    }
    expect(fake.calls).toEqual([]);
  });
});
