import type { IncomingMessage } from 'node:http';
import { parseEntityTags } from '@music/api-router';
import { fail } from './http';

/**
 * The conditional request headers (version 1.1), read the same way for `/v1` (rest.ts) and for
 * `/trpc` mutations (trpc-transport.ts).
 */

/** A conditional header's value, or a 400 when it cannot be read (not a list of entity tags). */
export function conditionOf(req: IncomingMessage, name: 'if-match' | 'if-none-match') {
  const header = req.headers[name];
  if (header === undefined) return undefined;
  const condition = parseEntityTags(header);
  if (condition === null) {
    throw fail(
      'BAD_REQUEST',
      `${name === 'if-match' ? 'If-Match' : 'If-None-Match'} must be * or a list of entity tags ("...")`,
    );
  }
  return condition;
}
