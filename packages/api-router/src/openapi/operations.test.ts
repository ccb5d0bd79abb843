import { describe, expect, it } from 'vitest';
import { operations } from '../procedures';
import { bodySchemaName, OPERATION_DOCS } from './operations';

describe('the per-operation docs of the OpenAPI document', () => {
  it('are keyed by procedures that exist (a renamed procedure would lose its prose silently)', () => {
    const paths = new Set(operations.map((operation) => operation.path));
    for (const key of Object.keys(OPERATION_DOCS)) expect(paths.has(key), key).toBe(true);
  });

  it('cover every procedure served on /v1', () => {
    for (const { path, route } of operations) if (route) expect(OPERATION_DOCS[path], path).toBeDefined();
  });

  it('name request bodies uniquely, from the table or the procedure path', () => {
    const names = operations.map((operation) => bodySchemaName(operation.path));
    expect(new Set(names).size).toBe(names.length);
    expect(bodySchemaName('songs.create')).toBe('SongCreate');
    expect(bodySchemaName('genres.merge')).toBe('GenreMerge');
  });
});
