import type { OperationDoc } from '../types';

const KEY_EXAMPLE = {
  id: '01970a3e-9b64-7e3b-8c8d-7a5f4e3d2c1b',
  name: 'Label ingest',
  scopes: ['catalogue:read', 'catalogue:write'],
  prefix: 'mc_Q2hhbmdlT',
  createdAt: '2026-11-27T10:00:00Z',
  expiresAt: null,
  lastUsedAt: null,
};
const NOT_YOURS = 'No key with this id among yours (an admin sees every key; a malformed id names none)';
const KEY_REFUSED = 'An API key (keys never manage keys)';

export const apiKeyDocs: Record<string, OperationDoc> = {
  'apiKeys.create': {
    description:
      'Keep the `token` where the program runs: it is never shown again (only its `prefix`). A key ' +
      'with `catalogue:write` of an artist account writes that artist’s songs, an admin’s writes any; ' +
      'demote the owner and the key can do no more than the owner now can. No `Idempotency-Key`: ' +
      'a retried creation makes a second key (delete the one you did not keep).',
    body: 'ApiKeyCreate',
    request: {
      name: 'Label ingest',
      scopes: ['catalogue:read', 'catalogue:write'],
      expiresAt: '2027-11-27T00:00:00Z',
    },
    response: {
      ...KEY_EXAMPLE,
      expiresAt: '2027-11-27T00:00:00Z',
      token: 'mc_Q2hhbmdlTWVCZWZvcmVVc2luZ0l0SW5Qcm9kdWN0',
    },
    errors: {
      FORBIDDEN: KEY_REFUSED,
      CONFLICT: 'The account already has 100 keys',
      VALIDATION_FAILED:
        'An unknown or repeated scope, no scope, an empty name, or `expiresAt` not in the future',
    },
  },
  'apiKeys.list': {
    description:
      '`lastUsedAt` is recorded in batches (every 15 seconds on each instance), so it can trail a use made a moment ago on another instance.',
    query: { page: 1, limit: 20 },
    response: { data: [KEY_EXAMPLE], pagination: { page: 1, limit: 20, total: 1 } },
    errors: {
      FORBIDDEN: `${KEY_REFUSED}, or a non-admin naming another user’s \`userId\``,
      NOT_FOUND: 'No user with this `userId`',
    },
  },
  'apiKeys.get': {
    description: 'Everything but the token, which is never stored.',
    response: KEY_EXAMPLE,
    errors: { FORBIDDEN: KEY_REFUSED, NOT_FOUND: NOT_YOURS },
  },
  'apiKeys.delete': {
    description: 'The key is refused (401) from the next request on, on every instance.',
    errors: { FORBIDDEN: KEY_REFUSED, NOT_FOUND: NOT_YOURS },
  },
};
