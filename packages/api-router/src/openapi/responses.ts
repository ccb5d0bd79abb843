import { ERROR_CODES, type ErrorCode } from '../error-codes';
import type { Traits } from '../traits';
import type { RouteMeta } from '../trpc';
import { headersOf, type Json } from './components';
import { commonHeaders, ERROR_DESCRIPTIONS, type ResponseComponents } from './response-components';
import type { OperationDoc } from './types';

/** One operation as the responses see it. */
export interface OperationFacts {
  route: RouteMeta;
  traits: Traits;
  doc: OperationDoc | undefined;
  hasBody: boolean;
  hasQuery: boolean;
  hasSort: boolean;
  /** Takes `cursor`: a cursor this list did not give out is a 422 on it. */
  hasCursor: boolean;
  hasPathParameters: boolean;
}

/**
 * The operation's wording of an error: its own (./operations.ts), else the general one, except a
 * 400, whose causes are those that apply to it.
 */
function wordingOf(code: ErrorCode, facts: OperationFacts): string {
  const own = facts.doc?.errors?.[code];
  if (own !== undefined) return own;
  if (code !== 'BAD_REQUEST') return ERROR_DESCRIPTIONS[code];
  const causes = [
    facts.hasQuery ? 'a query parameter is malformed or out of range (`page=0`, `limit=101`)' : '',
    facts.hasSort ? '`sort` names an unknown field or one field twice' : '',
    facts.hasBody ? 'the body is not a JSON object (or not `application/json`)' : '',
    // The edge reads the conditional header of every request, whether the operation uses it or not.
    `\`${facts.route.method === 'GET' ? 'If-None-Match' : 'If-Match'}\` is not \`*\` or a list of entity tags`,
  ].filter(Boolean);
  return `Malformed request: ${causes.join('; ')}`;
}

/** Causes every idempotent operation adds to a status, whatever its own wording. */
function idempotencyCause(code: ErrorCode, facts: OperationFacts): string | undefined {
  if (!facts.traits.idempotent) return undefined;
  if (code === 'CONFLICT') return 'a request with the same `Idempotency-Key` is still being processed';
  if (code === 'VALIDATION_FAILED') {
    return (
      'the `Idempotency-Key` is malformed, or was already used with another path or body ' +
      '(`field: "Idempotency-Key"`)'
    );
  }
  return undefined;
}

/** What a 403 adds for API keys, whatever the operation's own wording of it. */
function keyCause(code: ErrorCode, facts: OperationFacts): string | undefined {
  const access = facts.traits.keyAccess;
  if (code !== 'FORBIDDEN' || access === 'any') return undefined;
  if (access === 'session') return 'an API key (only a signed-in session may call this operation)';
  return `an API key without the scope \`${access}\` (\`WWW-Authenticate\` names it)`;
}

/** The errors an operation can answer: what it declares, plus what its shape implies. */
export function errorCodesOf(facts: OperationFacts): ErrorCode[] {
  const { route, traits, doc } = facts;
  const codes = new Set<ErrorCode>([
    ...(route.errors ?? []),
    ...(Object.keys(doc?.errors ?? {}) as ErrorCode[]),
  ]);
  // A missing token on a guarded operation; a refused one on every operation (public ones too).
  codes.add('UNAUTHORIZED');
  // An API key without the scope the operation needs, or on an operation no key may call.
  if (traits.keyAccess !== 'any') codes.add('FORBIDDEN');
  if (facts.hasPathParameters) codes.add('NOT_FOUND');
  // A malformed query or body, or a malformed If-Match / If-None-Match (read on every request).
  codes.add('BAD_REQUEST');
  if (facts.hasBody || traits.idempotent || facts.hasCursor) codes.add('VALIDATION_FAILED');
  if (traits.idempotent) codes.add('CONFLICT');
  if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH')
    codes.add('PAYLOAD_TOO_LARGE');
  if (traits.conditionalWrite) codes.add('PRECONDITION_FAILED');
  if (traits.counted) codes.add('TOO_MANY_REQUESTS');
  codes.add('INTERNAL_SERVER_ERROR');
  codes.add('SERVICE_UNAVAILABLE');
  return [...codes].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
}

/**
 * The error answers of an operation, by status: each a reference to its component, with the
 * operation's wording beside it where that differs from the component's.
 */
export function errorResponses(facts: OperationFacts, components: ResponseComponents): Json {
  return Object.fromEntries(
    errorCodesOf(facts).map((code) => {
      const own = wordingOf(code, facts);
      const extra = idempotencyCause(code, facts) ?? keyCause(code, facts);
      const description = extra ? `${own}; or ${extra}` : own;
      return [String(ERROR_CODES[code].status), components.error(code, facts.traits, description)];
    }),
  );
}

/**
 * The success answer with its real status (the generator knows only 200), its headers, and, for
 * a GET of a record or a list, the 304 of a revalidation.
 */
export function successResponses(
  facts: OperationFacts,
  generated: Json | undefined,
  example: unknown,
  components: ResponseComponents,
): Json {
  const { route, traits } = facts;
  const variant = { counted: traits.counted, replayable: traits.idempotent };
  const status = route.status ?? 200;
  const names = commonHeaders(traits);
  // A Location names what was made; a 201 of something not read by id (a link) has none.
  if (traits.located) names.push('Location');
  if (traits.record) names.push('ETag');
  // A list's tag is weak (W/"…"): see the ETag header's description.
  if (traits.list) names.push('ETag', 'Link');
  if (traits.idempotent) names.push('Idempotent-Replayed');
  const responses: Json = {};
  const generatedContent = (generated?.content ?? {}) as Record<string, Json>;
  const empty = Object.keys(generatedContent).length === 0 || isEmptySchema(generatedContent);
  if (status === 204) responses['204'] = components.bodiless('NoContent', variant);
  else if (status === 202 && empty) responses['202'] = components.bodiless('Accepted', variant);
  else {
    const content = (generated?.content ?? {}) as Record<string, Json>;
    const json = content['application/json'] ?? {};
    responses[String(status)] = {
      description: status === 201 ? 'Created' : 'OK',
      headers: headersOf(names),
      content: { 'application/json': { ...json, example } },
    };
  }
  if (traits.conditionalRead) responses['304'] = components.bodiless('NotModified', variant);
  return responses;
}

/** The generator's body for an operation whose output is `z.void()`: no schema, or an empty one. */
function isEmptySchema(content: Record<string, Json>): boolean {
  const schema = content['application/json']?.schema as Json | undefined;
  return schema === undefined || Object.keys(schema).length === 0 || schema.not !== undefined;
}
