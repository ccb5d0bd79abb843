import type { RouterInputs, RouterOutputs } from '@music/api-router/types';
import { toProblem } from '@/lib/errors';

/**
 * API keys as the console shows and makes them: the scopes in words, grouped by what they open,
 * and the "New API key" form read into `apiKeys.create`'s input (its rules are the procedure's:
 * a name of 1 to 100 characters, at least one scope, an expiry in the future).
 */

export type ApiKey = RouterOutputs['apiKeys']['list']['data'][number];
export type CreatedApiKey = RouterOutputs['apiKeys']['create'];
export type Scope = ApiKey['scopes'][number];
export type CreateApiKeyInput = RouterInputs['apiKeys']['create'];

/** What a key with each scope may do. Every scope the API knows must be worded here (checked by type). */
export const SCOPE_WORDS: Record<Scope, string> = {
  'catalogue:read': 'Read songs, artists and genres',
  'catalogue:write': 'Add, change and delete songs and artists (as your role allows)',
  'playlists:read': 'Read your playlists and public ones',
  'playlists:write': 'Make, change and delete your playlists',
  'users:read': 'Read your account and public names (admins: every account)',
  'users:write': 'Change your account (admins: every account)',
  'events:read': 'Read the activity log (admins only)',
  'webhooks:write': 'Manage webhooks',
};

/** The scopes by area, as the form groups its checkboxes. */
export const SCOPE_GROUPS: ReadonlyArray<{ area: string; scopes: readonly Scope[] }> = [
  { area: 'Catalogue', scopes: ['catalogue:read', 'catalogue:write'] },
  { area: 'Playlists', scopes: ['playlists:read', 'playlists:write'] },
  { area: 'Accounts', scopes: ['users:read', 'users:write'] },
  { area: 'Activity and webhooks', scopes: ['events:read', 'webhooks:write'] },
];

/** The longest name a key may have (the procedure's own bound). */
export const MAX_KEY_NAME = 100;
/** How many keys one account may have; the next is refused with a 409. */
export const MAX_KEYS = 100;

/** What the form holds: the name as typed, the scopes ticked, the expiry day (yyyy-mm-dd) or ''. */
export interface KeyFormValues {
  name: string;
  scopes: readonly Scope[];
  expires: string;
}

export type KeyFormReading =
  | { ok: true; input: CreateApiKeyInput }
  | { ok: false; fields: Partial<Record<'name' | 'scopes' | 'expiresAt', string>> };

/**
 * The end of day `day` (yyyy-mm-dd, as a date input gives it) in the reader's own time zone, as
 * ISO 8601 UTC: a key "expiring on 3 March" works through the whole of that day. Null when `day`
 * is no real date.
 */
export function endOfDay(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(y, m - 1, d, 23, 59, 59, 999);
  if (date.getFullYear() !== y || date.getMonth() !== m - 1 || date.getDate() !== d) return null;
  return date.toISOString();
}

/** The form's values as `apiKeys.create` takes them, or what is wrong with them, field by field. */
export function readKeyForm(values: KeyFormValues, now = new Date()): KeyFormReading {
  const fields: Partial<Record<'name' | 'scopes' | 'expiresAt', string>> = {};
  const name = values.name.trim();
  if (name === '') fields.name = 'Enter a name for the key, such as what will use it';
  else if ([...name].length > MAX_KEY_NAME)
    fields.name = `The name must be at most ${MAX_KEY_NAME} characters (it has ${[...name].length})`;
  if (values.scopes.length === 0) fields.scopes = 'Choose at least one thing the key may do';
  let expiresAt: string | undefined;
  if (values.expires !== '') {
    const end = endOfDay(values.expires);
    if (end === null) fields.expiresAt = 'Enter a date, such as 2030-12-31';
    else if (new Date(end) <= now) fields.expiresAt = 'Choose a day after today';
    else expiresAt = end;
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  // The scopes in the API's own order, whatever order they were ticked in.
  const scopes = (Object.keys(SCOPE_WORDS) as Scope[]).filter((scope) => values.scopes.includes(scope));
  return { ok: true, input: { name, scopes, ...(expiresAt ? { expiresAt } : {}) } };
}

/** The server's refusal of a new key, field by field where it names one; a full account in words. */
export function keyRefusal(error: unknown): { message: string | null; fields: Record<string, string> } {
  const problem = toProblem(error);
  if (problem.code === 'CONFLICT') {
    return {
      message: `You have ${MAX_KEYS} API keys, the most an account may have. Revoke one you no longer use, then try again.`,
      fields: {},
    };
  }
  // The API names a scope's problem on the list or on one of its items (`scopes.2`).
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(problem.fields)) {
    fields[field.startsWith('scopes') ? 'scopes' : field] ??= message;
  }
  if (Object.keys(fields).length > 0) return { message: null, fields };
  return { message: problem.message, fields };
}

/** Whether a key has stopped working at `now` (its expiry is past). */
export function isExpired(key: Pick<ApiKey, 'expiresAt'>, now = new Date()): boolean {
  return key.expiresAt !== null && new Date(key.expiresAt) <= now;
}
