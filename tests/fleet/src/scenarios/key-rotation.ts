import { expect } from 'vitest';
import { type Fleet, NEW_KEY, OLD_KEY } from './fleet';

export async function rotatesSigningKey(fleet: Fleet): Promise<void> {
  const user = await fleet.signUp('rotation');
  const before = user.token;
  const everywhere = async (token: string) =>
    Promise.all(
      fleet.apis.map(async (api) => (await fleet.call('GET', '/auth/me', { token, base: api.url })).status),
    );
  const tokens = [before];
  // 1: accept the next key; 2: sign with it, still accepting the old one.
  const steps: Array<Record<string, string>> = [
    { JWT_PREVIOUS_SECRETS: NEW_KEY },
    { JWT_SECRET: NEW_KEY, JWT_PREVIOUS_SECRETS: OLD_KEY },
  ];
  for (const step of steps) {
    for (const api of fleet.apis) {
      await fleet.restart(api, step);
      const fresh = await fleet.call('POST', '/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(fresh.status).toBe(200);
      tokens.push(fresh.body.accessToken);
      for (const token of tokens) expect(await everywhere(token)).toEqual([200, 200, 200]);
    }
  }
  const kid = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
  const signedNew = tokens.at(-1)!;
  expect(kid(signedNew)).not.toBe(kid(before));
  // 3: the old key dropped, a token lifetime later.
  for (const api of fleet.apis) await fleet.restart(api, { JWT_PREVIOUS_SECRETS: '' });
  expect(await everywhere(signedNew)).toEqual([200, 200, 200]);
  expect(await everywhere(before)).toEqual([401, 401, 401]);
}
