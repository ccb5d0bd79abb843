import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './format';
import { safeNext } from './navigation';

describe('durations', () => {
  it('reads minutes:seconds, hours:minutes:seconds and plain seconds', () => {
    expect(parseDuration('3:25')).toBe(205);
    expect(parseDuration(' 1:02:03 ')).toBe(3723);
    expect(parseDuration('245')).toBe(245);
  });

  it('refuses what is not a duration', () => {
    for (const text of ['', 'abc', '3:', ':25', '1:2:3:4', '-5', '3.5', '3:2x']) {
      expect(parseDuration(text), text).toBeNaN();
    }
  });

  it('writes what it reads', () => {
    for (const seconds of [1, 59, 60, 205, 3599, 3600, 3723, 86400]) {
      expect(parseDuration(formatDuration(seconds))).toBe(seconds);
    }
    expect(formatDuration(205)).toBe('3:25');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});

describe('safeNext', () => {
  it('keeps paths of this console', () => {
    expect(safeNext('/songs?search=a%20b')).toBe('/songs?search=a%20b');
    expect(safeNext('/playlists/123')).toBe('/playlists/123');
  });

  it('never redirects to another site', () => {
    for (const next of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
    ]) {
      expect(safeNext(next), String(next)).toBe('/');
    }
  });
});
