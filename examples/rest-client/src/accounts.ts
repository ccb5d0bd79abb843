import { randomUUID } from 'node:crypto';
import type { components } from '@music/sdk';
import { createApiClient } from './client';
import { type BodyOf, documentedHeader, expectData, expectError, expectStatus } from './documented';
import type { Account, Caller, Run, User } from './run';
import { check, checkRecord, equal } from './steps';

type Tokens = components['schemas']['TokenResponse'];

/** The contract's default access token life (ACCESS_TOKEN_TTL_SECONDS may only shorten it). */
const MAX_EXPIRES_IN = 86_400;

function callerOf(run: Run, tokens: Tokens): Caller {
  const { user, accessToken, refreshToken } = tokens;
  return {
    user,
    accessToken,
    refreshToken,
    client: createApiClient(run.apiUrl, { accessToken, refreshToken }),
  };
}

function checkTokens(tokens: Tokens, route: string): void {
  equal(tokens.tokenType, 'Bearer', `${route} tokenType`);
  check(
    Number.isInteger(tokens.expiresIn) && tokens.expiresIn > 0 && tokens.expiresIn <= MAX_EXPIRES_IN,
    `${route} expiresIn ${tokens.expiresIn} is not 1..${MAX_EXPIRES_IN} seconds`,
  );
  check(tokens.accessToken.split('.').length === 3, `${route} accessToken is not a JWT`);
  check(tokens.refreshToken.length > 0, `${route} refreshToken is empty`);
}

/** POST /users without a token: a public sign-up, answered 201 with Location and ETag. */
export function signUp(run: Run, label: string): Promise<(Account & { user: User }) | undefined> {
  return run.scenario.step(`sign up (${label})`, [], async (_, say) => {
    const username = `${label} ${run.tag}`;
    const email = `${label}-${run.tag}@example.com`;
    const password = `pw-${randomUUID()}`;
    const body: BodyOf<'POST /users'> = { username, email, password };
    const result = await run.anonymous.POST('/users', { body });
    const user = expectData(result, 'POST /users', 201);
    checkRecord(user, 'user');
    equal(
      { username: user.username, email: user.email, role: user.role },
      { username, email, role: 'user' },
      'user',
    );
    check(!('password' in user), 'the user record carries a password');
    const location = documentedHeader(result.response, 'POST /users', 201, 'Location');
    equal(location, `/v1/users/${user.id}`, 'Location');
    documentedHeader(result.response, 'POST /users', 201, 'ETag');
    say(`201 ${email}, Location ${location}, ETag set`);
    return { email, password, user };
  });
}

/** POST /auth/login: tokens and the user, whose role must be `role`. */
export function signIn(
  run: Run,
  label: string,
  account: Account | undefined,
  role: User['role'],
): Promise<Caller | undefined> {
  return run.scenario.step(`sign in (${label})`, [account], async ([{ email, password }], say) => {
    const body: BodyOf<'POST /auth/login'> = { email, password };
    const result = await run.anonymous.POST('/auth/login', { body });
    const tokens = expectData(result, 'POST /auth/login', 200);
    checkTokens(tokens, 'POST /auth/login');
    equal(tokens.user.email, email.toLowerCase(), 'user.email');
    equal(tokens.user.role, role, 'user.role');
    say(`200 Bearer token for ${tokens.user.email} (${role}), expires in ${tokens.expiresIn} s`);
    return callerOf(run, tokens);
  });
}

/** POST /auth/refresh: new tokens (a new refresh token: rotation), the new access token works. */
export function refresh(run: Run, caller: Caller | undefined): Promise<Caller | undefined> {
  return run.scenario.step('refresh the token', [caller], async ([before], say) => {
    const body: BodyOf<'POST /auth/refresh'> = { refreshToken: before.refreshToken };
    const result = await run.anonymous.POST('/auth/refresh', { body });
    const tokens = expectData(result, 'POST /auth/refresh', 200);
    checkTokens(tokens, 'POST /auth/refresh');
    check(tokens.refreshToken !== before.refreshToken, 'the refresh token was not rotated');
    equal(tokens.user.id, before.user.id, 'user.id');
    const after = callerOf(run, tokens);
    const me = expectData(await after.client.GET('/auth/me'), 'GET /auth/me', 200);
    equal(me.id, before.user.id, 'GET /auth/me id with the new token');
    say('200 new access and refresh tokens; GET /auth/me answers with the new one');
    return after;
  });
}

/**
 * POST /auth/logout: 204, then the access token and the refresh token both give 401, the
 * former with RFC 6750's `WWW-Authenticate` naming the refused token.
 */
export function logOut(run: Run, caller: Caller | undefined): Promise<true | undefined> {
  return run.scenario.step('log out', [caller], async ([signedIn], say) => {
    const result = await signedIn.client.POST('/auth/logout');
    expectStatus(result.response, 'POST /auth/logout', 204, result.error);

    const me = await signedIn.client.GET('/auth/me');
    const error = expectError(me, 'GET /auth/me', 401);
    equal(error.code, 'UNAUTHORIZED', 'GET /auth/me after logout: code');
    const challenge = documentedHeader(me.response, 'GET /auth/me', 401, 'WWW-Authenticate');
    check(
      /^Bearer realm="music"/.test(challenge) && challenge.includes('error="invalid_token"'),
      `WWW-Authenticate is ${challenge}, expected Bearer realm="music" with error="invalid_token"`,
    );

    const body: BodyOf<'POST /auth/refresh'> = { refreshToken: signedIn.refreshToken };
    const again = await run.anonymous.POST('/auth/refresh', { body });
    equal(expectError(again, 'POST /auth/refresh', 401).code, 'UNAUTHORIZED', 'refresh after logout: code');
    say('204; the access token and the refresh token now give 401 UNAUTHORIZED');
    return true as const;
  });
}
