import { describe, expect, it } from 'vitest';
import { readResetToken, withoutFragment } from './reset-token';

describe('readResetToken', () => {
  it('reads the token of the link the API mails', () => {
    expect(readResetToken('#token=abc_DEF-123')).toEqual({ kind: 'token', token: 'abc_DEF-123' });
    expect(readResetToken('token=abc')).toEqual({ kind: 'token', token: 'abc' });
  });

  it('reads it among other parameters, decoded', () => {
    expect(readResetToken('#utm=mail&token=a%2Db')).toEqual({ kind: 'token', token: 'a-b' });
  });

  it('says when there is none', () => {
    for (const hash of ['', '#', '#token=', '#token=%20', '#other=1', '#tokens=abc']) {
      expect(readResetToken(hash), hash).toEqual({ kind: 'none' });
    }
  });

  it('refuses a token longer than the API takes, without sending it', () => {
    expect(readResetToken(`#token=${'a'.repeat(513)}`)).toEqual({ kind: 'malformed' });
    expect(readResetToken(`#token=${'a'.repeat(512)}`)).toMatchObject({ kind: 'token' });
  });
});

describe('withoutFragment', () => {
  it('keeps the path and the query, drops the fragment', () => {
    expect(withoutFragment({ pathname: '/reset-password', search: '' })).toBe('/reset-password');
    expect(withoutFragment({ pathname: '/reset-password', search: '?a=1' })).toBe('/reset-password?a=1');
  });
});
