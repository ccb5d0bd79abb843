import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressRefusal, checkWebhookUrl, guardedLookup, type Resolve, type UrlPolicy } from './url-policy';

const STRICT: UrlPolicy = { allowHttp: false, allowPrivate: false };
const OPEN: UrlPolicy = { allowHttp: true, allowPrivate: true };

const names: Record<string, string[]> = {
  'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example': ['10.0.0.5'],
  'mixed.example': ['93.184.216.34', '169.254.169.254'],
};
const resolve: Resolve = async (host) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const check = async (url: string, policy = STRICT) => {
  const result = await checkWebhookUrl(url, policy, resolve);
  return 'refusal' in result ? result.refusal : 'ok';
};

describe('webhook URL policy', () => {
  it('takes https: only, http: too when allowed, never credentials or other schemes', async () => {
    expect(await check('https://public.example/hook')).toBe('ok');
    expect(await check('http://public.example/hook')).toBe('Must be an https: URL');
    expect(await check('http://public.example/hook', { allowHttp: true, allowPrivate: false })).toBe('ok');
    expect(await check('ftp://public.example/', OPEN)).toBe('Must be an https: or http: URL');
    expect(await check('https://user:secret@public.example/')).toBe('Must not carry a user name or password');
    expect(await check('not a url')).toBe('Not a URL');
    expect(await check('https://nowhere.example/')).toBe('The host nowhere.example does not resolve');
  });

  it('never goes to link-local or metadata addresses, however they are written, whatever the settings', async () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://2852039166/', // 169.254.169.254 as one number
      'https://0xa9.0xfe.0xa9.0xfe/',
      'https://[fe80::1]/',
      'https://[fd00:ec2::254]/',
      'https://[::ffff:169.254.169.254]/',
      'https://[64:ff9b::a9fe:a9fe]/', // NAT64
      'https://[2002:a9fe:a9fe::1]/', // 6to4
      'https://0.0.0.0/',
      'https://mixed.example/', // one of its addresses is enough
    ]) {
      expect(await check(url, OPEN), url).toMatch(/link-local, metadata or reserved/);
    }
  });

  it('refuses loopback and private addresses unless WEBHOOK_ALLOW_PRIVATE', async () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://0x7f.1/',
      'https://[::1]/',
      'https://10.1.2.3/',
      'https://172.20.0.1/',
      'https://192.168.1.10/',
      'https://100.64.0.1/',
      'https://[fd12:3456::1]/',
      'https://internal.example/',
    ]) {
      expect(await check(url), url).toMatch(/loopback or private/);
      expect(await check(url, OPEN), url).toBe('ok');
    }
    expect(await check('https://172.32.0.1/')).toBe('ok');
    expect(addressRefusal('2606:2800:220:1:248:1893:25c8:1946', STRICT)).toBeUndefined();
  });

  it('checks the addresses again when a delivery connects', async () => {
    const server = createServer((_, res) => res.end('ok'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const get = (policy: UrlPolicy) =>
      new Promise<string>((done) => {
        const req = request(
          { host: 'localhost', port, family: 4, agent: false, lookup: guardedLookup(policy) },
          (res) => {
            res.resume();
            done(String(res.statusCode));
          },
        );
        req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
        req.end();
      });
    try {
      expect(await get(OPEN)).toBe('200');
      expect(await get(STRICT)).toBe('EREFUSED_ADDRESS');
    } finally {
      server.close();
    }
  });
});
