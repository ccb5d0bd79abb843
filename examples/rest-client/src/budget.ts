import { createApiClient } from './client';
import { type BodyOf, documentedHeader, expectData, expectError, expectStatus, Mismatch } from './documented';
import type { Caller, Run, User } from './run';
import { check, equal } from './steps';

/** PUT /users/{userId}/role as admin: the role changes, nothing else does. */
export function changeRole(run: Run, admin: Caller | undefined, user: User | undefined) {
  return run.scenario.step('change a role (admin)', [admin, user], async ([{ client }, before], say) => {
    const body: BodyOf<'PUT /users/{userId}/role'> = { role: 'artist' };
    const result = await client.PUT('/users/{userId}/role', {
      params: { path: { userId: before.id } },
      body,
    });
    const after = expectData(result, 'PUT /users/{userId}/role', 200);
    const { id, username, email, createdAt } = before;
    equal(
      {
        id: after.id,
        username: after.username,
        email: after.email,
        createdAt: after.createdAt,
        role: after.role,
      },
      { id, username, email, createdAt, role: 'artist' },
      'the user after the role change',
    );
    say(`200 ${email} is now an artist`);
    return after;
  });
}

/** Budgets hold "within a few percent": that much slack before the missing 429 is a failure. */
const slackOf = (limit: number) => Math.ceil(limit * 0.05) + 1;

/**
 * Spends a caller's whole budget of requests per minute. The caller is one of its own, so the
 * rest of the scenario is not locked out for the minute that follows. The first answer carries
 * the RateLimit headers; once the budget is spent the API answers 429 with `Retry-After`.
 */
export function exhaustBudget(run: Run, caller: Caller | undefined) {
  return run.scenario.step(
    'spend a request budget (429)',
    [caller],
    async ([{ accessToken, refreshToken }], say) => {
      // Without the SDK's backoff: this step wants to see the 429, not wait it out.
      const client = createApiClient(run.apiUrl, { accessToken, refreshToken }, { retry: false });
      let first = await client.GET('/auth/me');
      expectData(first, 'GET /auth/me', 200);
      // A budget is a minute's window: starting in its last seconds, the loop below would cross
      // into a fresh budget and never see the 429. Begin in a fresh window instead.
      const resetAtFirst = Number(first.response.headers.get('RateLimit-Reset'));
      if (Number.isInteger(resetAtFirst) && resetAtFirst < 10) {
        await new Promise((resolve) => setTimeout(resolve, (resetAtFirst + 1) * 1000));
        first = await client.GET('/auth/me');
        expectData(first, 'GET /auth/me', 200);
      }
      const header = (
        name: 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset' | 'RateLimit-Policy',
      ) => documentedHeader(first.response, 'GET /auth/me', 200, name);
      const limit = Number(header('RateLimit-Limit'));
      const remaining = Number(header('RateLimit-Remaining'));
      const reset = Number(header('RateLimit-Reset'));
      check(
        Number.isInteger(limit) && limit > 0,
        `RateLimit-Limit ${header('RateLimit-Limit')} is not a budget`,
      );
      check(
        Number.isInteger(remaining) && remaining >= 0 && remaining < limit,
        `RateLimit-Remaining ${remaining} is not below RateLimit-Limit ${limit} after a request`,
      );
      check(
        Number.isInteger(reset) && reset >= 0 && reset <= 60,
        `RateLimit-Reset ${reset} is not 0..60 seconds`,
      );
      equal(header('RateLimit-Policy'), `${limit};w=60`, 'RateLimit-Policy');

      const cap = remaining + slackOf(limit);
      for (let sent = 1; sent <= cap + 1; sent++) {
        const result = await client.GET('/auth/me');
        if (result.response.status !== 429) {
          expectStatus(result.response, 'GET /auth/me', 200, result.error);
          continue;
        }
        check(sent > remaining - slackOf(limit), `429 after ${sent} requests, with ${remaining} remaining`);
        equal(expectError(result, 'GET /auth/me', 429).code, 'TOO_MANY_REQUESTS', 'code');
        const retryAfter = Number(documentedHeader(result.response, 'GET /auth/me', 429, 'Retry-After'));
        check(
          Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60,
          `Retry-After ${retryAfter} is not 1..60 seconds`,
        );
        say(
          `budget ${limit}/min: request ${sent + 1} got 429 TOO_MANY_REQUESTS, Retry-After ${retryAfter} s`,
        );
        return true as const;
      }
      throw new Mismatch(`no 429 after ${cap + 1} more requests with RateLimit-Remaining ${remaining}`);
    },
  );
}
