import { listSongsInput } from '@music/api-router/schemas';
import { describe, expect, it } from 'vitest';
import { param, parseSort, readQuery, sortDirection, toggleSort, writeQuery } from './url-state';

const schema = {
  search: param.text(),
  sort: param.text({
    fallback: 'title',
    valid: (value) => listSongsInput.shape.sort.safeParse(value).success,
  }),
  page: param.integer({ fallback: 1 }),
  limit: param.oneOf([10, 20, 50, 100], 20),
  tab: param.oneOf(['mine', 'all'], 'mine'),
};

describe('reading a query', () => {
  it('falls back for every parameter the address does not hold', () => {
    expect(readQuery(schema, '')).toEqual({ search: '', sort: 'title', page: 1, limit: 20, tab: 'mine' });
  });

  it('reads each parameter as its kind', () => {
    const query = 'search=+blue+hour+&sort=-releaseYear,title&page=3&limit=50&tab=all';
    expect(readQuery(schema, query)).toEqual({
      search: 'blue hour',
      sort: '-releaseYear,title',
      page: 3,
      limit: 50,
      tab: 'all',
    });
  });

  it('reads Next’s search params and URLSearchParams alike', () => {
    expect(readQuery(schema, new URLSearchParams({ page: '2' })).page).toBe(2);
  });

  it('takes the fallback for a malformed value, never failing the screen', () => {
    const values = readQuery(schema, 'sort=-popularity&page=0&limit=7&tab=everyone');
    expect(values).toEqual({ search: '', sort: 'title', page: 1, limit: 20, tab: 'mine' });
    for (const page of ['-2', '1.5', 'abc', '', '1e3', '99999999999999999999'])
      expect(readQuery(schema, `page=${page}`).page, page).toBe(1);
    // A repeated field is no sort the API takes either.
    expect(readQuery(schema, 'sort=title,-title').sort).toBe('title');
  });

  it('keeps integers within their bounds', () => {
    const bounded = { n: param.integer({ fallback: 5, min: 2, max: 9 }) };
    expect(readQuery(bounded, 'n=1').n).toBe(5);
    expect(readQuery(bounded, 'n=2').n).toBe(2);
    expect(readQuery(bounded, 'n=9').n).toBe(9);
    expect(readQuery(bounded, 'n=10').n).toBe(5);
  });
});

describe('writing a query', () => {
  it('leaves out what equals its fallback, so the plain view has a plain address', () => {
    expect(writeQuery(schema, readQuery(schema, ''))).toBe('');
    expect(writeQuery(schema, { ...readQuery(schema, ''), search: '' })).toBe('');
  });

  it('writes the rest in the schema’s order, encoded', () => {
    const values = {
      search: 'rock & roll',
      sort: '-duration',
      page: 2,
      limit: 10 as const,
      tab: 'all' as const,
    };
    const query = writeQuery(schema, values);
    expect(query).toBe('search=rock+%26+roll&sort=-duration&page=2&limit=10&tab=all');
    expect(readQuery(schema, query)).toEqual(values);
  });

  it('keeps parameters the schema does not name, and drops the ones it changes', () => {
    const query = writeQuery(schema, { ...readQuery(schema, ''), page: 4 }, 'page=2&utm=mail&search=old');
    expect(query).toBe('utm=mail&page=4');
  });
});

describe('sort (version 1.1)', () => {
  it('reads comma-separated keys, `-` for descending', () => {
    expect(parseSort('title,-releaseYear')).toEqual([
      { field: 'title', descending: false },
      { field: 'releaseYear', descending: true },
    ]);
    expect(parseSort('')).toEqual([]);
  });

  it('names the direction of the first key only', () => {
    expect(sortDirection('title', 'title')).toBe('ascending');
    expect(sortDirection('-title,album', 'title')).toBe('descending');
    expect(sortDirection('-title,album', 'album')).toBeUndefined();
    expect(sortDirection('', 'title')).toBeUndefined();
  });

  it('sorts by a column ascending first, then turns it around', () => {
    expect(toggleSort('title', 'releaseYear')).toBe('releaseYear');
    expect(toggleSort('releaseYear', 'releaseYear')).toBe('-releaseYear');
    expect(toggleSort('-releaseYear', 'releaseYear')).toBe('releaseYear');
    // A second key gives way to the column clicked.
    expect(toggleSort('album,-title', 'album')).toBe('-album');
    expect(toggleSort('-title,album', 'album')).toBe('album');
  });
});
