import { describe, expect, it } from 'vitest';
import { changedFields, needsCurrentPassword } from './user-changes';

const saved = { username: 'Lou', email: 'lou@example.com', role: 'user' as const };

describe('changedFields', () => {
  it('is empty when nothing changed, and an empty password keeps the one there is', () => {
    expect(changedFields(saved, { ...saved })).toEqual({});
    expect(changedFields(saved, { ...saved, password: '' })).toEqual({});
    expect(changedFields(saved, {})).toEqual({});
  });

  it('holds only the fields that differ', () => {
    expect(changedFields(saved, { ...saved, username: 'Lou Reed' })).toEqual({ username: 'Lou Reed' });
    expect(changedFields(saved, { ...saved, role: 'artist' })).toEqual({ role: 'artist' });
    expect(changedFields(saved, { ...saved, email: 'new@example.com', password: 'a-new-password' })).toEqual({
      email: 'new@example.com',
      password: 'a-new-password',
    });
  });

  it('sends a typed password even when it may be the same: only the API can tell', () => {
    expect(changedFields(saved, { password: 'whatever-it-was' })).toEqual({ password: 'whatever-it-was' });
  });
});

describe('needsCurrentPassword', () => {
  it('asks for it for your own email or password only', () => {
    expect(needsCurrentPassword({ email: 'new@example.com' }, true)).toBe(true);
    expect(needsCurrentPassword({ password: 'a-new-password' }, true)).toBe(true);
    expect(needsCurrentPassword({ username: 'New' }, true)).toBe(false);
    expect(needsCurrentPassword({ role: 'user' }, true)).toBe(false);
    expect(needsCurrentPassword({}, true)).toBe(false);
  });

  it('never for an admin changing someone else', () => {
    expect(needsCurrentPassword({ email: 'new@example.com', password: 'a-new-password' }, false)).toBe(false);
  });
});
