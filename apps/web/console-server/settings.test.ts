import { describe, expect, it } from 'vitest';
import { readSettings } from './settings';

describe('the console server’s settings', () => {
  it('defaults: 127.0.0.1:3000, the built console, trusting no proxy', () => {
    const settings = readSettings({}, []);
    expect(settings).toMatchObject({ dev: false, hostname: '127.0.0.1', port: 3000 });
    expect(settings.trustProxy.description).toBe('none');
    expect(settings.trustProxy.trusts('127.0.0.1')).toBe(false);
  });

  it('reads WEB_HOST, WEB_PORT, TRUST_PROXY and --dev, whatever NODE_ENV says', () => {
    const settings = readSettings(
      { WEB_HOST: '0.0.0.0', WEB_PORT: '3310', TRUST_PROXY: 'loopback, 10.0.0.0/8', NODE_ENV: 'development' },
      [],
    );
    expect(settings).toMatchObject({ dev: false, hostname: '0.0.0.0', port: 3310 });
    expect(settings.trustProxy.trusts('10.1.2.3')).toBe(true);
    expect(readSettings({}, ['--dev']).dev).toBe(true);
  });

  it('refuses what it cannot use, in one line naming it', () => {
    expect(() => readSettings({ TRUST_PROXY: 'everyone' }, [])).toThrow(/TRUST_PROXY entry "everyone"/);
    expect(() => readSettings({ WEB_PORT: '70000' }, [])).toThrow(/WEB_PORT "70000"/);
    expect(() => readSettings({ WEB_PORT: '30a' }, [])).toThrow(/WEB_PORT/);
    expect(() => readSettings({}, ['--port'])).toThrow(/"--port"/);
  });
});
