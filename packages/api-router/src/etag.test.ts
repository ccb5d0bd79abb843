import { describe, expect, it } from 'vitest';
import { etagOf, etagOfJson, matchesStrongly, matchesWeakly, parseEntityTags } from './etag';

describe('entity tags', () => {
  const playlist = { id: 'p', name: 'Mix', songIds: ['a', 'b'], description: null };

  it('is strong, the tag of the JSON answered, and changes with any value or order', () => {
    const tag = etagOf(playlist);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOfJson(JSON.stringify(playlist))).toBe(tag);
    expect(etagOf({ ...playlist, songIds: ['b', 'a'] })).not.toBe(tag);
    expect(etagOf({ ...playlist, description: '' })).not.toBe(tag);
    expect(etagOf({ ...playlist, extra: undefined })).toBe(tag);
  });

  it('parses lists, *, and weak tags, and refuses what is not a list of tags', () => {
    expect(parseEntityTags('*')).toBe('*');
    expect(parseEntityTags(' "a" , W/"b"')).toEqual(['"a"', 'W/"b"']);
    for (const bad of ['a', '"a', '"a" "b"', 'W/a', '"a",', '"a"b"'])
      expect(parseEntityTags(bad), bad).toBeNull();
  });

  it('compares strongly for If-Match (a weak tag never matches) and weakly for If-None-Match', () => {
    const tag = etagOf(playlist);
    expect(matchesStrongly([tag], tag)).toBe(true);
    expect(matchesStrongly([`W/${tag}`], tag)).toBe(false);
    expect(matchesStrongly('*', tag)).toBe(true);
    expect(matchesWeakly([`W/${tag}`], tag)).toBe(true);
    expect(matchesWeakly(['"other"'], tag)).toBe(false);
  });
});
