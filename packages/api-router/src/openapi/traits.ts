import type { RouteMeta } from '../trpc';
import type { Json } from './components';
import type { OperationDoc, Traits } from './types';

export interface RouteFacts {
  route: RouteMeta;
  /** The generated operation (trpc-to-openapi's, before post-processing). */
  operation: Json;
  /** The document's component schemas, to resolve the success body's `$ref`. */
  schemas: Record<string, Json>;
  /** Built with `publicProcedure`: anonymous callers are served. */
  isPublic: boolean;
}

/** The success body's schema, its `$ref` resolved. */
function successSchema({ operation, schemas }: RouteFacts): Json | undefined {
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const content = responses['200']?.content as Record<string, { schema?: Json }> | undefined;
  const schema = content?.['application/json']?.schema;
  const ref = typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  return ref ? schemas[ref] : schema;
}

function hasProperties(schema: Json | undefined, ...names: string[]): boolean {
  const properties = (schema?.properties ?? {}) as Json;
  return names.every((name) => name in properties);
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Paths of single records: `/{collection}/{id}` served by a GET answering a record. A write on
 * exactly such a path (PUT, PATCH, DELETE) is checked against its ETag.
 */
export function recordPaths(facts: readonly RouteFacts[]): Set<string> {
  return new Set(
    facts
      .filter((f) => f.route.method === 'GET' && /^\/[^/{]+\/\{[^}]+\}$/.test(f.route.path))
      .filter((f) => hasProperties(successSchema(f), 'id', 'updatedAt'))
      .map((f) => f.route.path),
  );
}

export function traitsOf(facts: RouteFacts, records: Set<string>, doc: OperationDoc | undefined): Traits {
  const { route, operation, isPublic } = facts;
  const body = successSchema(facts);
  const status = route.status ?? 200;
  const record = status !== 204 && status !== 202 && hasProperties(body, 'id', 'updatedAt');
  const collection = route.path.split('/')[1];
  const ownsRecords = [...records].some((path) => path.split('/')[1] === collection);
  const derived: Traits = {
    list: status !== 204 && status !== 202 && hasProperties(body, 'data', 'pagination'),
    record,
    conditionalRead: route.method === 'GET' && record,
    // Declared by the operation (it checks If-Match in its service), or a plain write of a record.
    conditionalWrite:
      (route.errors ?? []).includes('PRECONDITION_FAILED') ||
      (route.method !== 'POST' && WRITES.has(route.method) && records.has(route.path)),
    // POSTs with a body under a collection of records: creations and appends (not sign-in).
    idempotent: route.method === 'POST' && operation.requestBody !== undefined && ownsRecords,
    counted: true,
    // A public operation on a collection of records behaves by its caller (a sign-up by an admin);
    // the other public ones (sign-in, refresh) have no use for a token.
    security: !isPublic ? 'bearer' : ownsRecords ? 'optional' : 'none',
  };
  return { ...derived, ...(doc?.traits ?? {}) };
}
