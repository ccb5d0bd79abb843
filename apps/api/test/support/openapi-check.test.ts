import { createOpenApiDocument } from '@music/api-router';
import { describe, expect, it } from 'vitest';
import { checkAgainstDocument, createResponseChecker } from './openapi-check';

// The response checker every HTTP suite runs through must itself be able to fail.
const id = '01a207be-678a-77d6-b1a5-00f040b08117';
const plain = new Headers({ 'x-request-id': 'r-1' });
const json = new Headers({ 'content-type': 'application/json', 'x-request-id': 'r-1' });
const tagged = new Headers({ 'content-type': 'application/json', 'x-request-id': 'r-1', etag: '"a1"' });
const song = {
  id,
  title: 'Afterglow',
  album: null,
  genre: 'Indie',
  duration: 242,
  releaseYear: 2018,
  isrc: null,
  externalId: null,
  artistIds: [],
  createdAt: '2026-11-23T09:30:48Z',
  updatedAt: '2026-11-23T09:30:48Z',
};
const path = `/songs/${id}`;
const without = (headers: Headers, name: string) => {
  const copy = new Headers(headers);
  copy.delete(name);
  return copy;
};

describe('the OpenAPI response check', () => {
  it('accepts a response the document describes', () => {
    expect(checkAgainstDocument('GET', path, 200, tagged, JSON.stringify(song))).toBeNull();
    expect(checkAgainstDocument('DELETE', path, 204, plain, '')).toBeNull();
    expect(checkAgainstDocument('DELETE', path, 204, new Headers(), '')).toMatch(/X-Request-Id/);
    const notFound = JSON.stringify({ code: 'NOT_FOUND', message: 'Song not found' });
    expect(checkAgainstDocument('GET', path, 404, json, notFound)).toBeNull();
    expect(
      checkAgainstDocument('GET', path, 304, new Headers({ 'x-request-id': 'r-1', etag: '"a1"' }), ''),
    ).toBeNull();
  });

  it('refuses a status the operation does not list', () => {
    expect(checkAgainstDocument('GET', path, 418, json, '{}')).toMatch(/status not in the document/);
    // A 304 only where If-None-Match is taken (record and list reads), never on a write.
    expect(checkAgainstDocument('POST', '/songs', 304, plain, '')).toMatch(/status not in the document/);
    expect(
      checkAgainstDocument('GET', '/songs', 304, new Headers({ 'x-request-id': 'r-1', etag: 'W/"a1"' }), ''),
    ).toBeNull();
  });

  it('refuses a body that does not match the schema', () => {
    const { title: _title, ...untitled } = song;
    expect(checkAgainstDocument('GET', path, 200, tagged, JSON.stringify(untitled))).toMatch(/title/);
    expect(
      checkAgainstDocument('GET', path, 200, tagged, JSON.stringify({ ...song, duration: '242' })),
    ).toMatch(/duration/);
    expect(checkAgainstDocument('GET', path, 404, json, '{"error":"nope"}')).toMatch(/does not match/);
  });

  it('holds errors to their discriminated shapes', () => {
    // ApiError's code never is VALIDATION_FAILED, and a 422 must carry `errors`.
    const misfiled = JSON.stringify({ code: 'VALIDATION_FAILED', message: 'x' });
    expect(checkAgainstDocument('GET', path, 404, json, misfiled)).toMatch(/does not match/);
    expect(checkAgainstDocument('PATCH', path, 422, json, misfiled)).toMatch(/errors/);
    const invalid = JSON.stringify({
      code: 'VALIDATION_FAILED',
      message: 'x',
      errors: [{ field: 'title', message: 'Required' }],
    });
    expect(checkAgainstDocument('PATCH', path, 422, json, invalid)).toBeNull();
    const notFound = JSON.stringify({ code: 'NOT_FOUND', message: 'x', errors: [] });
    expect(checkAgainstDocument('GET', path, 404, json, notFound)).toMatch(/does not match/);
  });

  it('refuses an answer without a header the contract promises', () => {
    expect(checkAgainstDocument('DELETE', path, 204, json, '{}')).toMatch(/no body/);
    expect(checkAgainstDocument('GET', path, 304, tagged, '{}')).toMatch(/no body/);
    const created = checkAgainstDocument('POST', '/songs', 201, tagged, JSON.stringify(song));
    expect(created).toMatch(/Location/i);
    const located = new Headers(tagged);
    located.set('location', path);
    expect(checkAgainstDocument('POST', '/songs', 201, located, JSON.stringify(song))).toBeNull();
    expect(
      checkAgainstDocument('POST', '/songs', 201, without(located, 'etag'), JSON.stringify(song)),
    ).toMatch(/ETag/);
    expect(checkAgainstDocument('GET', path, 200, json, JSON.stringify(song))).toMatch(/ETag/);
    const page = JSON.stringify({ data: [song], pagination: { page: 1, limit: 20, total: 1 } });
    expect(checkAgainstDocument('GET', '/songs', 200, json, page)).toMatch(/ETag/);
    const listTagged = new Headers({ ...Object.fromEntries(json), etag: 'W/"a1"' });
    expect(checkAgainstDocument('GET', '/songs', 200, listTagged, page)).toMatch(/Link/);
    const linked = new Headers(listTagged);
    linked.set('link', '</v1/songs?page=1>; rel="first", </v1/songs?page=1>; rel="last"');
    expect(checkAgainstDocument('GET', '/songs', 200, linked, page)).toBeNull();
    const unauthorized = JSON.stringify({ code: 'UNAUTHORIZED', message: 'x' });
    expect(checkAgainstDocument('GET', path, 401, json, unauthorized)).toMatch(/WWW-Authenticate/);
    const throttled = JSON.stringify({ code: 'TOO_MANY_REQUESTS', message: 'x' });
    expect(checkAgainstDocument('GET', path, 429, json, throttled)).toMatch(/Retry-After/);
  });

  it('follows a response reference into components.responses, and fails one that leads nowhere', () => {
    const document = JSON.parse(JSON.stringify(createOpenApiDocument()));
    const get = document.paths['/songs/{songId}'].get;
    expect(get.responses['404'].$ref).toBe('#/components/responses/NotFound');
    // A checker of the document as it is now (it reads the document once, when made).
    const check = (headers: Headers, text: string) =>
      createResponseChecker(document)('GET', path, 404, headers, text);
    const notFound = JSON.stringify({ code: 'NOT_FOUND', message: 'Song not found' });
    expect(check(json, notFound)).toBeNull();
    // The component's schema and headers hold, not only the status.
    expect(check(json, '{"code":"NOT_FOUND"}')).toMatch(/message/);
    expect(check(new Headers({ 'content-type': 'application/json' }), notFound)).toMatch(/X-Request-Id/);
    expect(check(plain, notFound)).toMatch(/not JSON/);

    delete document.components.responses.NotFound;
    expect(check(json, notFound)).toMatch(/reference to no response/);
    get.responses['404'] = { $ref: '#/components/schemas/Error' };
    expect(check(json, notFound)).toMatch(/reference to no response/);
    delete get.responses['404'];
    expect(check(json, notFound)).toMatch(/status not in the document/);
  });
});
