import { describe, expect, it } from 'vitest';
import { checkAgainstDocument } from './testing/openapi-check';

// The response checker every HTTP suite runs through must itself be able to fail.
const json = new Headers({ 'content-type': 'application/json', 'x-request-id': 'r-1' });
const plain = new Headers({ 'x-request-id': 'r-1' });
const song = {
  id: '01a207be-678a-77d6-b1a5-00f040b08117',
  title: 'Afterglow',
  album: null,
  genre: 'Indie',
  duration: 242,
  releaseYear: 2018,
  artistIds: [],
  createdAt: '2026-11-23T09:30:48Z',
  updatedAt: '2026-11-23T09:30:48Z',
};
const path = `/songs/${song.id}`;

describe('the OpenAPI response check', () => {
  it('accepts a response the document describes', () => {
    expect(checkAgainstDocument('GET', path, 200, json, JSON.stringify(song))).toBeNull();
    expect(checkAgainstDocument('DELETE', path, 204, plain, '')).toBeNull();
    expect(checkAgainstDocument('DELETE', path, 204, new Headers(), '')).toMatch(/X-Request-Id/);
    const notFound = JSON.stringify({ code: 'NOT_FOUND', message: 'Song not found' });
    expect(checkAgainstDocument('GET', path, 404, json, notFound)).toBeNull();
  });

  it('refuses a status the operation does not list', () => {
    expect(checkAgainstDocument('GET', path, 418, json, '{}')).toMatch(/status not in the document/);
  });

  it('refuses a body that does not match the schema', () => {
    const { title: _title, ...untitled } = song;
    expect(checkAgainstDocument('GET', path, 200, json, JSON.stringify(untitled))).toMatch(/title/);
    expect(
      checkAgainstDocument('GET', path, 200, json, JSON.stringify({ ...song, duration: '242' })),
    ).toMatch(/duration/);
    expect(checkAgainstDocument('GET', path, 404, json, '{"error":"nope"}')).toMatch(/does not match/);
  });

  it('refuses a 204 with a body and a 201 without its Location', () => {
    expect(checkAgainstDocument('DELETE', path, 204, json, '{}')).toMatch(/no body/);
    const created = checkAgainstDocument('POST', '/songs', 201, json, JSON.stringify(song));
    expect(created).toMatch(/Location/i);
  });
});
