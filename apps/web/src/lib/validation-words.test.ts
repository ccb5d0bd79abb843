import {
  confirmResetInput,
  createArtistInput,
  createPlaylistInput,
  createSongInput,
  createUserInput,
  loginInput,
  patchUserInput,
  requestResetInput,
} from '@music/api-router/schemas';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { charactersLeft, errorsInWords, fieldRules, messageInWords } from './validation-words';

/** The field errors a form shows for `input`, as the forms check it (issues with their input). */
function errorsOf(schema: z.ZodType, input: unknown, nouns: Record<string, string> = {}) {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return {};
  return errorsInWords(schema, result.error.issues, nouns);
}

// What zod says by itself, and what people were shown before (issue: "Too small: expected string
// to have >=1 characters").
const RAW = /Too small|Too big|expected|received|>=|<=|Invalid input|Invalid UUID/;

describe('errorsInWords: the forms’ refusals as sentences', () => {
  it('asks for an empty song title, and bounds the year in words', () => {
    const errors = errorsOf(
      createSongInput,
      { title: '   ', duration: 200, releaseYear: 99, genre: 'g'.repeat(51), album: 'a'.repeat(201) },
      { title: 'a title' },
    );
    expect(errors).toEqual({
      title: 'Enter a title',
      album: 'At most 200 characters',
      genre: 'At most 50 characters',
      releaseYear: 'Must be a whole number between 1000 and 9999',
    });
  });

  it('words a year that is no number, or not a whole one, by the same bounds', () => {
    for (const releaseYear of [Number('abc'), 2024.5, 10_000]) {
      expect(
        errorsOf(createSongInput, { title: 'T', duration: 1, releaseYear }).releaseYear,
        String(releaseYear),
      ).toBe('Must be a whole number between 1000 and 9999');
    }
  });

  it('asks for a missing required number without naming zod’s types', () => {
    expect(errorsOf(createSongInput, { title: 'T' })).toEqual({ duration: 'Fill in this field' });
    expect(errorsOf(createSongInput, { title: 'T', duration: 0 })).toEqual({
      duration: 'Must be a whole number between 1 and 86400',
    });
  });

  it('asks for an artist’s and a playlist’s name, and bounds their long texts', () => {
    expect(errorsOf(createArtistInput, { name: '', bio: 'b'.repeat(2001) }, { name: 'a name' })).toEqual({
      name: 'Enter a name',
      bio: 'At most 2000 characters',
    });
    expect(
      errorsOf(
        createPlaylistInput,
        { name: 'n'.repeat(101), description: 'd'.repeat(1001) },
        { name: 'a name' },
      ),
    ).toEqual({ name: 'At most 100 characters', description: 'At most 1000 characters' });
  });

  it('words an email, a short password and an unknown account', () => {
    const errors = errorsOf(
      createUserInput,
      { username: 'u', email: 'not-an-email', password: 'short', role: 'owner' },
      { email: 'an email address' },
    );
    expect(errors).toEqual({
      email: 'Enter a valid email address',
      password: 'At least 8 characters',
      role: 'Choose one of the options',
    });
    // An empty email is not there yet, rather than malformed.
    expect(
      errorsOf(
        createUserInput,
        { username: 'u', email: '', password: 'long-enough' },
        { email: 'an email address' },
      ),
    ).toEqual({ email: 'Enter an email address' });
    expect(errorsOf(createArtistInput, { name: 'A', userId: 'nope' })).toEqual({
      userId: 'Choose an entry from the list',
    });
  });

  it('keeps what a schema’s author wrote (refinements), and names unknown fields', () => {
    const id = '01970a3e-7f42-7c19-9a6b-5e3d2c1b0a02';
    expect(errorsOf(createSongInput, { title: 'T', duration: 1, artistIds: [id, id], extra: 1 })).toEqual({
      'artistIds.1': 'Repeated id',
      form: 'Unknown field',
    });
    expect(errorsOf(createSongInput, { title: 'Bell\u0007', duration: 1 })).toEqual({
      title: 'Must not contain control characters',
    });
  });

  it('never shows zod’s own wording for the forms’ fields', () => {
    const inputs: [z.ZodType, unknown][] = [
      [createSongInput, {}],
      [createSongInput, { title: '', duration: Number.NaN, releaseYear: Number.NaN, artistIds: ['x'] }],
      [createArtistInput, { name: 'n'.repeat(201), bio: 5, userId: 'x' }],
      [createPlaylistInput, { name: '', description: 'd'.repeat(1001), isPublic: 'yes' }],
      [createUserInput, { username: '', email: '', password: '' }],
    ];
    for (const [schema, input] of inputs) {
      for (const message of Object.values(errorsOf(schema, input))) expect(message).not.toMatch(RAW);
    }
  });
});

describe('messageInWords: the API’s 422 field errors', () => {
  it('rewords zod’s English, as the API sends it', () => {
    const title = { rules: fieldRules(createSongInput, 'title'), noun: 'a title' };
    expect(messageInWords('Too small: expected string to have >=1 characters', title)).toBe('Enter a title');
    expect(messageInWords('Too big: expected string to have <=200 characters', title)).toBe(
      'At most 200 characters',
    );
    const year = { rules: fieldRules(createSongInput, 'releaseYear') };
    for (const message of [
      'Too small: expected number to be >=1000',
      'Too big: expected number to be <=9999',
      'Invalid input: expected int, received number',
      'Invalid input: expected number, received NaN',
    ]) {
      expect(messageInWords(message, year), message).toBe('Must be a whole number between 1000 and 9999');
    }
    expect(messageInWords('Too small: expected number to be >=1')).toBe('Must be a number, 1 or more');
    expect(messageInWords('Invalid email address')).toBe('Enter a valid email address');
    expect(messageInWords('Invalid UUID')).toBe('Choose an entry from the list');
    expect(messageInWords('Invalid input: expected string, received undefined', { noun: 'a name' })).toBe(
      'Enter a name',
    );
    expect(messageInWords('Invalid option: expected one of "user"|"artist"|"admin"')).toBe(
      'Choose one of the options',
    );
  });

  it('keeps a message that is the API’s own sentence', () => {
    expect(messageInWords('No song with this id')).toBe('No song with this id');
    expect(messageInWords('Must be the id of a user with role artist')).toBe(
      'Must be the id of a user with role artist',
    );
  });
});

describe('fieldRules: required and bounds from the schemas', () => {
  it('reads the song’s fields', () => {
    expect(fieldRules(createSongInput, 'title')).toEqual({ required: true, minLength: 1, maxLength: 200 });
    expect(fieldRules(createSongInput, 'album')).toEqual({ required: false, maxLength: 200 });
    expect(fieldRules(createSongInput, 'genre')).toEqual({ required: false, maxLength: 50 });
    expect(fieldRules(createSongInput, 'duration')).toEqual({
      required: true,
      whole: true,
      min: 1,
      max: 86400,
    });
    expect(fieldRules(createSongInput, 'releaseYear')).toEqual({
      required: false,
      whole: true,
      min: 1000,
      max: 9999,
    });
    expect(fieldRules(createSongInput, 'artistIds')).toEqual({ required: false });
  });

  it('reads the artist’s, the playlist’s and the user’s fields', () => {
    expect(fieldRules(createArtistInput, 'name')).toMatchObject({ required: true, maxLength: 200 });
    expect(fieldRules(createArtistInput, 'bio')).toEqual({ required: false, maxLength: 2000 });
    expect(fieldRules(createArtistInput, 'userId')).toEqual({ required: false });
    expect(fieldRules(createPlaylistInput, 'name')).toMatchObject({ required: true, maxLength: 100 });
    expect(fieldRules(createPlaylistInput, 'description')).toEqual({ required: false, maxLength: 1000 });
    // An email has no least length, but an empty one is refused all the same.
    expect(fieldRules(createUserInput, 'email')).toEqual({ required: true, maxLength: 254, uncut: true });
    expect(fieldRules(createUserInput, 'password')).toEqual({
      required: true,
      minLength: 8,
      maxLength: 128,
      uncut: true,
    });
    expect(fieldRules(createUserInput, 'role')).toEqual({ required: false });
    expect(fieldRules(createUserInput, 'nothing')).toEqual({ required: false });
  });

  it('marks passwords, emails and account names as never cut, wherever the schema uses them', () => {
    // A password cut at its limit is not the one typed: its owner could not sign in with it.
    expect(fieldRules(createUserInput, 'username')).toEqual({
      required: true,
      minLength: 1,
      maxLength: 50,
      uncut: true,
    });
    expect(fieldRules(patchUserInput, 'username')).toEqual({
      required: false,
      minLength: 1,
      maxLength: 50,
      uncut: true,
    });
    for (const [schema, name] of [
      [patchUserInput, 'password'],
      [patchUserInput, 'currentPassword'],
      [confirmResetInput, 'password'],
      [loginInput, 'password'],
      [patchUserInput, 'email'],
      [requestResetInput, 'email'],
    ] as const) {
      expect(fieldRules(schema, name), name).toMatchObject({ uncut: true });
    }
    // Other names and texts keep their maxLength: shown as typed, a cut there is seen.
    expect(fieldRules(createArtistInput, 'name')).not.toHaveProperty('uncut');
    expect(fieldRules(createPlaylistInput, 'name')).not.toHaveProperty('uncut');
    expect(fieldRules(createSongInput, 'title')).not.toHaveProperty('uncut');
    expect(fieldRules(confirmResetInput, 'token')).not.toHaveProperty('uncut');
  });
});

describe('charactersLeft', () => {
  it('counts down, and past the limit', () => {
    expect(charactersLeft(0, 2000)).toBe('2000 characters left');
    expect(charactersLeft(1999, 2000)).toBe('1 character left');
    expect(charactersLeft(1002, 1000)).toBe('2 characters too many');
  });
});
