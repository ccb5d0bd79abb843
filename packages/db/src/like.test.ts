import { describe, expect, it } from 'vitest';
import { likeContains, likePrefix, prefixEnd } from './like';

describe('LIKE patterns and key ranges', () => {
  it('escapes the wildcards and the escape character', () => {
    expect(likeContains('100%_\\')).toBe('%100\\%\\_\\\\%');
    expect(likePrefix('a%')).toBe('a\\%%');
  });

  it('ends the range of strings starting with a text at its last code point moved on by one', () => {
    expect(prefixEnd('abc')).toBe('abd');
    expect(prefixEnd('z')).toBe('{');
    expect(prefixEnd('ζήτ')).toBe('ζήυ');
    // Beyond the Basic Multilingual Plane: a code point, not a UTF-16 unit.
    expect(prefixEnd('a😀')).toBe('a😁');
    // UTF-8 holds no surrogates: past U+D7FF comes U+E000.
    expect(prefixEnd('a\u{d7ff}')).toBe('a\u{e000}');
    // Nothing is above U+10FFFF: the range ends after the character before it.
    expect(prefixEnd('ab\u{10ffff}')).toBe('ac');
    expect(prefixEnd('\u{10ffff}')).toBeUndefined();
    expect(prefixEnd('')).toBeUndefined();
  });
});
