import { expect } from 'vitest';
import type { Fleet } from './fleet';

export async function limitsWrongPasswordsAcrossInstances(fleet: Fleet): Promise<void> {
  const victim = await fleet.signUp('victim');
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      fleet.call('POST', '/auth/login', {
        body: { email: victim.email, password: 'a-wrong-password' },
        forwardedFor: '198.51.100.30',
      }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 401)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  for (const a of answers.filter((a) => a.status === 429)) {
    expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  const right = await fleet.call('POST', '/auth/login', {
    body: { email: victim.email, password: victim.password },
    forwardedFor: '198.51.100.31',
  });
  expect(right.status).toBe(429);
}
