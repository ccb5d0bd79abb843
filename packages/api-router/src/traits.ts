import { type KeyAccess, keyAccessOf } from './scopes';

/**
 * What an operation is as far as HTTP goes, decided once per operation from what its procedure
 * declares (route meta, builder, input and output schemas) and read alike by the REST edge
 * (ETag, Link, Idempotency-Key), the `/trpc` transport (budgets) and the OpenAPI document
 * (headers, parameters, statuses). An operation added to the router gets them without anyone
 * touching the transports or the document; a route meta's `traits` corrects one where the
 * derivation below is wrong.
 */
export interface Traits {
  /** The success body is a page (`data` + `pagination`): a `Link` header and a weak `ETag`. */
  list: boolean;
  /** The success body is one record (it has `id` and `updatedAt`): an `ETag` header. */
  record: boolean;
  /** A 201 that made something readable at `{path}/{id}`: a `Location` header. */
  located: boolean;
  /** A GET of one record or of a list: takes `If-None-Match`, may answer 304. */
  conditionalRead: boolean;
  /** A write checked against the record's ETag: takes `If-Match`, may answer 412. */
  conditionalWrite: boolean;
  /** Takes an `Idempotency-Key` (the creations, and appending to a collection). */
  idempotent: boolean;
  /** Under a request budget: RateLimit headers, may answer 429. Every procedure is. */
  counted: boolean;
  /**
   * Who may call: `bearer` needs a token; `optional` serves anonymous callers and more to some
   * (sign-up: an admin's token may set a role); `none` takes no token (sign-in, refresh).
   */
  security: 'bearer' | 'optional' | 'none';
  /** What an API key needs to call it: a scope, `any` key, or none (`session`: sign in). */
  keyAccess: KeyAccess;
  /** The success body is a file, streamed (`RouteMeta.download`): no ETag, not on `/trpc`. */
  download: boolean;
  /** The request body is a file, read as it arrives (`RouteMeta.upload`): not on `/trpc`. */
  upload: boolean;
}

/** What the derivation reads of a route's meta (`RouteMeta` in ./trpc.ts, which refers to this file). */
interface RouteFacts {
  method: string;
  path: string;
  tag: string;
  keyAccess?: KeyAccess | undefined;
  status?: number | undefined;
  errors?: readonly string[] | undefined;
  traits?: Partial<Traits> | undefined;
  download?: Record<string, string> | undefined;
  upload?: Record<string, string> | undefined;
}

/** What the derivation reads of one procedure. */
export interface TraitSource {
  route: RouteFacts;
  /** Built with `publicProcedure`. */
  isPublic: boolean;
  /** The fields of its output object (`.output()`), none when it answers no object. */
  outputFields: ReadonlySet<string>;
  /** Its input fields that are not path parameters: on a POST, the request body. */
  bodyFields: readonly string[];
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** `/{collection}/{id}`: the path of one record. */
const RECORD_PATH = /^\/[^/{]+\/\{[^}]+\}$/;

function answersBody(route: RouteFacts): boolean {
  return route.status !== 204 && route.status !== 202;
}

function isRecordAnswer(source: TraitSource): boolean {
  const keys = source.outputFields;
  return answersBody(source.route) && keys.has('id') && keys.has('updatedAt');
}

/** Every operation's traits, in the order given: record paths are known only from all of them. */
export function deriveTraits(sources: readonly TraitSource[]): Traits[] {
  // Paths of single records: `/{collection}/{id}` served by a GET answering a record. A write on
  // exactly such a path (PUT, PATCH, DELETE) is checked against its ETag.
  const recordPaths = new Set(
    sources
      .filter((s) => s.route.method === 'GET' && RECORD_PATH.test(s.route.path) && isRecordAnswer(s))
      .map((s) => s.route.path),
  );
  const collections = new Set([...recordPaths].map((path) => path.split('/')[1]));
  // Collections whose members are read one by one (`GET /{collection}/{id}`), records or not.
  const readable = new Set(
    sources
      .filter((s) => s.route.method === 'GET' && RECORD_PATH.test(s.route.path))
      .map((s) => s.route.path.slice(0, s.route.path.lastIndexOf('/'))),
  );
  return sources.map((source) => {
    const { route, isPublic } = source;
    const record = isRecordAnswer(source) && route.download === undefined;
    const keys = source.outputFields;
    const ownsRecords = collections.has(route.path.split('/')[1]);
    const list = answersBody(route) && keys.has('data') && keys.has('pagination');
    const derived: Traits = {
      list,
      record,
      located: route.status === 201 && keys.has('id') && readable.has(route.path),
      conditionalRead: route.method === 'GET' && (record || list),
      // Declared by the operation (it checks If-Match in its service), or a plain write of a record.
      conditionalWrite:
        (route.errors ?? []).includes('PRECONDITION_FAILED') ||
        (route.method !== 'POST' && WRITES.has(route.method) && recordPaths.has(route.path)),
      // POSTs with a body under a collection of records: creations and appends (not sign-in).
      idempotent: route.method === 'POST' && source.bodyFields.length > 0 && ownsRecords,
      counted: true,
      // A public operation on a collection of records behaves by its caller (a sign-up by an
      // admin); the other public ones (sign-in, refresh) have no use for a token.
      security: !isPublic ? 'bearer' : ownsRecords ? 'optional' : 'none',
      keyAccess: keyAccessOf(route),
      download: route.download !== undefined,
      upload: route.upload !== undefined,
    };
    return { ...derived, ...(route.traits ?? {}) };
  });
}
