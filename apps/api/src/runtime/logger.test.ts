import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger';

/** What the logger wrote to stdout, line by line. */
function capture() {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return lines;
}

afterEach(() => vi.restoreAllMocks());

const ok = { method: 'GET', path: '/v1/songs', status: 200, ms: 3.1, requestId: 'r1' };

describe('logger', () => {
  it('json: one object per line, every request at info', () => {
    const lines = capture();
    const log = createLogger('info', 'json');
    log.request(ok);
    log.warn('database connection lost', { error: 'reset' });
    log.debug('not shown');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request', status: 200, path: '/v1/songs' }),
      expect.objectContaining({ level: 'warn', msg: 'database connection lost', error: 'reset' }),
    ]);
  });

  it('pretty: short lines, and only the requests worth a look at info', () => {
    const lines = capture();
    const log = createLogger('info', 'pretty');
    log.request(ok);
    log.request({ ...ok, status: 404 });
    log.request({ ...ok, ms: 1500 });
    log.info('api listening', { url: 'http://127.0.0.1:4000' });
    const colour = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g');
    const plain = lines.map((line) => line.replace(colour, ''));
    expect(plain).toHaveLength(3);
    expect(plain[0]).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/songs 404 3\.1 ms$/);
    expect(plain[1]).toMatch(/ GET \/v1\/songs 200 1500 ms$/);
    expect(plain[2]).toMatch(/^\d\d:\d\d:\d\d api listening url=http:\/\/127\.0\.0\.1:4000$/);
    for (const line of plain) expect(() => JSON.parse(line)).toThrow();
  });

  it('pretty at debug: every request', () => {
    const lines = capture();
    createLogger('debug', 'pretty').request(ok);
    expect(lines).toHaveLength(1);
  });
});
