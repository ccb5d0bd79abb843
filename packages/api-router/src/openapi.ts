import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { ERROR_CODES, type ErrorCode, MAX_FIELD_ERRORS } from './errors';
import { operations } from './procedures';
import { appRouter } from './router';
import type { RouteMeta } from './trpc';

type Json = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Malformed request: body not JSON or not an object, or a bad query parameter',
  UNAUTHORIZED: 'Token missing, invalid, expired or revoked',
  FORBIDDEN: 'Authenticated, but not allowed (role or ownership)',
  NOT_FOUND: 'No such resource (or a malformed id)',
  METHOD_NOT_ALLOWED: 'The path exists but not with this method',
  CONFLICT: 'Conflicts with the current state (duplicate email, song already in playlist)',
  PRECONDITION_FAILED: 'If-Match does not match the current ETag: nothing was changed; read the resource again',
  PAYLOAD_TOO_LARGE: 'Body over 1 MiB',
  VALIDATION_FAILED: 'Body fields failed validation; see `errors`',
  TOO_MANY_REQUESTS: 'Throttled; see `Retry-After`',
  INTERNAL_SERVER_ERROR: 'Unexpected server error (logged with the request id)',
  SERVICE_UNAVAILABLE: 'The database is unavailable; see `Retry-After`',
};

const errorRef = { $ref: '#/components/schemas/Error' };
const validationErrorRef = { $ref: '#/components/schemas/ValidationError' };
const retryAfterHeader = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
const headerComponents = {
  RetryAfter: {
    description: 'Seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
  },
  RequestId: {
    description: 'Echoes a valid incoming X-Request-Id, or a generated one',
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
};

function errorResponse(code: ErrorCode): Json {
  const retry = code === 'TOO_MANY_REQUESTS' || code === 'SERVICE_UNAVAILABLE';
  return {
    description: ERROR_DESCRIPTIONS[code],
    headers: { ...requestIdHeader, ...(retry ? retryAfterHeader : {}) },
    content: { 'application/json': { schema: code === 'VALIDATION_FAILED' ? validationErrorRef : errorRef } },
  };
}

/** The errors an operation can answer, derived from its shape plus the ones it declares. */
function errorCodesOf(route: RouteMeta, isPublic: boolean, operation: Json): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors ?? []);
  const parameters = (operation.parameters as Array<{ in: string }> | undefined) ?? [];
  if (!isPublic) codes.add('UNAUTHORIZED');
  if (parameters.some((p) => p.in === 'path')) codes.add('NOT_FOUND');
  if (parameters.some((p) => p.in === 'query')) codes.add('BAD_REQUEST');
  if (operation.requestBody) {
    codes.add('BAD_REQUEST');
    codes.add('VALIDATION_FAILED');
  }
  if (route.method !== 'GET' && route.method !== 'DELETE') codes.add('PAYLOAD_TOO_LARGE');
  codes.add('INTERNAL_SERVER_ERROR');
  codes.add('SERVICE_UNAVAILABLE');
  return [...codes].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
}

function successResponse(route: RouteMeta, generated: Json | undefined): [string, Json] {
  const status = route.status ?? 200;
  if (status === 204) return ['204', { description: 'Done; no body', headers: requestIdHeader }];
  const response: Json = { ...(generated ?? {}), headers: { ...requestIdHeader } };
  if (status === 201) {
    response.description = 'Created';
    response.headers = {
      ...requestIdHeader,
      Location: {
        description: 'Path of the new resource',
        required: true,
        schema: { type: 'string', maxLength: 100 },
      },
    };
  }
  return [String(status), response];
}

const plainOperations: Json = {
  '/health': {
    get: {
      operationId: 'health',
      summary: 'Readiness: may this instance be sent requests?',
      description:
        'For load balancers. 200 when this instance and its database answer; 503 when the database is unreachable or the instance is shutting down (it goes on serving other requests for a short delay, so a balancer checking this has time to stop sending it new ones).',
      tags: ['operations'],
      security: [],
      responses: {
        '200': {
          description: 'The API and its database answer',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
        },
        '503': {
          description: 'The database is unreachable, or the instance is draining before it stops',
          headers: retryAfterHeader,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
        },
      },
    },
  },
  '/health/live': {
    get: {
      operationId: 'healthLive',
      summary: 'Liveness: does the process answer?',
      description:
        'For process supervisors. 200 whenever the process can answer, whatever the state of the database or a shutdown in progress; restart the process only when this fails.',
      tags: ['operations'],
      security: [],
      responses: {
        '200': {
          description: 'The process answers',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Liveness' } } },
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      tags: ['operations'],
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: {} } } },
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'docs',
      summary: 'Browsable reference of this document',
      tags: ['operations'],
      security: [],
      responses: {
        '200': {
          description: 'HTML page',
          content: { 'text/html': { schema: { type: 'string', maxLength: 65536 } } },
        },
      },
    },
  },
};

const errorSchemas: Json = {
  Error: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable code to branch on' },
      message: { type: 'string', maxLength: 1000, description: 'Human-readable explanation' },
    },
    additionalProperties: false,
  },
  ValidationError: {
    type: 'object',
    required: ['code', 'message', 'errors'],
    properties: {
      code: { type: 'string', const: 'VALIDATION_FAILED' },
      message: { type: 'string', maxLength: 1000 },
      errors: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_FIELD_ERRORS,
        description: `The fields that failed, the first ${MAX_FIELD_ERRORS} at most`,
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: {
            field: {
              type: 'string',
              maxLength: 200,
              description: 'Dotted path of the field, e.g. `artistIds.1`',
            },
            message: { type: 'string', maxLength: 1000 },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: {
      status: { type: 'string', enum: ['ok', 'degraded', 'draining'] },
      database: { type: 'string', enum: ['ok', 'unavailable'] },
    },
  },
  Liveness: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['ok'] } },
  },
};

/**
 * The `/v1` OpenAPI 3.1 document: trpc-to-openapi derives paths, parameters and schemas from
 * the procedures; the contract's parts it cannot know (real success statuses, the error
 * bodies, which errors each operation answers, public operations) are filled in here.
 */
export function createOpenApiDocument(options: { baseUrl?: string } = {}): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Music catalogue API',
    description:
      'Users, artists, songs and playlists. Every error is `{code, message}` (422 adds `errors`). ' +
      'Dates are UTC `YYYY-MM-DDThh:mm:ssZ`; ids are UUIDs; lists take `page` and `limit`.',
    version: '1.0.0',
    baseUrl: options.baseUrl ?? '/v1',
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'An access token from `POST /auth/login` or `/auth/refresh`: an HS256 JWT verified as RFC8725 ' +
          'advises (algorithm, type, issuer and audience pinned; `exp` required), valid 24 hours, and ' +
          'refused at once when its session is revoked.',
      },
    },
  }) as OpenAPIObject & { paths: Record<string, Record<string, Json>> };

  for (const { route, isPublic } of operations) {
    if (!route) continue;
    const path = route.path.replace(/\{(\w+)\}/g, '{$1}');
    const operation = document.paths[path]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI generator skipped ${route.method} ${route.path}`);
    const generated = (operation.responses as Record<string, Json>)['200'];
    const [status, success] = successResponse(route, generated);
    const errors = Object.fromEntries(
      errorCodesOf(route, isPublic, operation).map((code) => [
        String(ERROR_CODES[code].status),
        errorResponse(code),
      ]),
    );
    operation.responses = { [status]: success, ...errors };
    operation.security = isPublic ? [] : [{ bearerAuth: [] }];
  }
  Object.assign(document.paths, plainOperations);
  type Components = NonNullable<OpenAPIObject['components']>;
  document.components = {
    ...document.components,
    schemas: { ...(document.components?.schemas ?? {}), ...(errorSchemas as Components['schemas']) },
    headers: headerComponents as Components['headers'],
  };
  document.tags = ['auth', 'users', 'artists', 'songs', 'playlists', 'operations'].map((name) => ({ name }));
  // Served to other teams' apps over the network: not an internal-only server.
  for (const server of document.servers ?? []) Object.assign(server, { 'x-internal': false });
  addImpliedLimits(document);
  return document;
}

const FORMAT_LENGTHS: Record<string, number> = { uuid: 36, 'date-time': 20, email: 254 };

/**
 * What zod knows but does not write: `int32`/`int64` on every integer from its bounds, and the
 * length that a `uuid`, `date-time` (`YYYY-MM-DDThh:mm:ssZ`) or email string implies.
 */
function addImpliedLimits(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addImpliedLimits(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  const implied = typeof schema.format === 'string' ? FORMAT_LENGTHS[schema.format] : undefined;
  if (schema.type === 'string' && implied !== undefined && schema.maxLength === undefined)
    schema.maxLength = implied;
  if (schema.type === 'integer' && schema.format === undefined) {
    const fits32 =
      typeof schema.maximum === 'number' &&
      schema.maximum <= 2_147_483_647 &&
      typeof schema.minimum === 'number' &&
      schema.minimum >= -2_147_483_648;
    schema.format = fits32 ? 'int32' : 'int64';
  }
  for (const value of Object.values(schema)) addImpliedLimits(value);
}
