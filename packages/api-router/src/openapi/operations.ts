import { apiKeyDocs } from './operations/api-keys';
import { auditDocs } from './operations/audit';
import { authAndUserDocs } from './operations/auth-users';
import { catalogueDocs } from './operations/catalogue';
import { eventDocs } from './operations/events';
import { importDocs } from './operations/imports';
import { playlistDocs } from './operations/playlists';
import { webhookDocs } from './operations/webhooks';
import type { OperationDoc } from './types';

export type { OperationDoc };

export const OPERATION_DOCS: Record<string, OperationDoc> = {
  ...authAndUserDocs,
  ...apiKeyDocs,
  ...catalogueDocs,
  ...playlistDocs,
  ...auditDocs,
  ...eventDocs,
  ...webhookDocs,
  ...importDocs,
};

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The component name of an operation's request body: the one its entry gives (`UserCreate`),
 * else the singular of its area and its procedure's name (`genres.merge` -> `GenreMerge`).
 */
export function bodySchemaName(procedurePath: string): string {
  const given = OPERATION_DOCS[procedurePath]?.body;
  if (given) return given;
  const [area = '', ...rest] = procedurePath.split('.');
  return pascal(area.replace(/s$/, '')) + rest.map(pascal).join('');
}
