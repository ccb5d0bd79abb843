import { describe, expect, it } from 'vitest';
import { formatDuration, MAX_DURATION, readDuration } from './format';
import { safeNext } from './navigation';

/** The seconds a text reads as, or its error. */
const read = (text: string) => {
  const reading = readDuration(text);
  return reading.ok ? reading.seconds : reading.error;
};

describe('durations', () => {
  it('reads minutes:seconds, hours:minutes:seconds and plain seconds', () => {
    expect(read('3:25')).toBe(205);
    expect(read('0:01')).toBe(1);
    expect(read('03:25')).toBe(205);
    expect(read(' 1:02:03 ')).toBe(3723);
    expect(read('59:59')).toBe(3599);
    expect(read('245')).toBe(245);
    expect(read('24:00:00')).toBe(MAX_DURATION);
  });

  it('refuses seconds and minutes above 59 instead of carrying them over', () => {
    // Both were read as 4:15 and 2:40:39 before.
    expect(read('3:75')).toBe('Seconds must be 0-59');
    expect(read('1:99:99')).toBe('Minutes must be 0-59');
    expect(read('1:00:60')).toBe('Seconds must be 0-59');
    expect(read('1:60:00')).toBe('Minutes must be 0-59');
    expect(read('75:00')).toMatch(/^Minutes must be 0-59/);
  });

  it('refuses an empty or zero length, and one past the API’s 24 hours', () => {
    expect(read('')).toBe('Enter the length, such as 3:25');
    expect(read('   ')).toBe('Enter the length, such as 3:25');
    for (const zero of ['0', '0:00', '0:00:00'])
      expect(read(zero), zero).toBe('The length must be at least 0:01');
    for (const long of ['24:00:01', '25:00:00', '86401', '99999999999999999999']) {
      expect(read(long), long).toBe('The length must be at most 24:00:00');
    }
    expect(read('86400')).toBe(MAX_DURATION);
  });

  it('asks for two digits after a colon, so 3:5 is not guessed', () => {
    expect(read('3:5')).toBe('Write seconds with two digits, as in 3:05');
    expect(read('1:2:03')).toBe('Write minutes with two digits, as in 1:02:03');
  });

  it('refuses what is not a duration, saying how to write one', () => {
    for (const text of ['abc', '3:', ':25', '1:2:3:4', '-5', '3.5', '3:2x', '1e3', '3 :25', '+5']) {
      expect(read(text), text).toMatch(/^Use minutes:seconds \(3:25\)/);
    }
  });

  it('writes what it reads', () => {
    for (const seconds of [1, 59, 60, 205, 3599, 3600, 3723, 86400]) {
      expect(read(formatDuration(seconds))).toBe(seconds);
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
