import { ALWAYS, headersOf, type Json, parameterRef, schemaRef } from './components';
import type { ResponseComponents } from './response-components';

/**
 * The `/v1` routes that are not procedures, built afresh for each document. None is under a
 * request budget (so no RateLimit headers and no 429) and none needs a token.
 */
export function serviceOperations(responses: ResponseComponents): Record<string, Record<string, Json>> {
  const unmetered = { counted: false };
  const always = headersOf(ALWAYS);
  // What the server's last resort answers on any route when something unexpected fails.
  const internalError = responses.error('INTERNAL_SERVER_ERROR', unmetered);
  return {
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Readiness: may this instance be sent requests?',
        description:
          'For load balancers. 200 when this instance and its database answer; 503 when the database ' +
          'is unreachable or the instance is shutting down (it goes on serving other requests for a ' +
          'short delay, so a balancer checking this has time to stop sending it new ones).',
        tags: ['operations'],
        security: [],
        responses: {
          '500': internalError,
          '200': {
            description: 'The API and its database answer',
            headers: always,
            content: {
              'application/json': { schema: schemaRef('Health'), example: { status: 'ok', database: 'ok' } },
            },
          },
          '503': {
            description: 'The database is unreachable, or the instance is draining before it stops',
            headers: headersOf([...ALWAYS, 'Retry-After']),
            content: {
              'application/json': {
                schema: schemaRef('Health'),
                example: { status: 'degraded', database: 'unavailable' },
              },
            },
          },
        },
      },
    },
    '/health/live': {
      get: {
        operationId: 'healthLive',
        summary: 'Liveness: does the process answer?',
        description:
          'For process supervisors. 200 whenever the process can answer, whatever the state of the ' +
          'database or a shutdown in progress; restart the process only when this fails.',
        tags: ['operations'],
        security: [],
        responses: {
          '500': internalError,
          '200': {
            description: 'The process answers',
            headers: always,
            content: { 'application/json': { schema: schemaRef('Liveness'), example: { status: 'ok' } } },
          },
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        description:
          'The OpenAPI 3.1 description of `/v1`, for generating clients. It carries an `ETag`: ' +
          'revalidate a cached copy with `If-None-Match` (304 when unchanged).',
        tags: ['operations'],
        security: [],
        parameters: [parameterRef('IfNoneMatch')],
        responses: {
          '500': internalError,
          '200': {
            description: 'The OpenAPI 3.1 document',
            headers: headersOf([...ALWAYS, 'ETag']),
            content: {
              'application/json': {
                schema: { type: 'object', description: 'An OpenAPI 3.1 document' },
                example: { openapi: '3.1.0', info: { title: 'Music catalogue API', version: '1.1.0' } },
              },
            },
          },
          '304': responses.bodiless('NotModified', unmetered),
          '400': responses.error(
            'BAD_REQUEST',
            unmetered,
            '`If-None-Match` is not `*` or a list of entity tags',
          ),
        },
      },
    },
    '/docs': {
      get: {
        operationId: 'docs',
        summary: 'Browsable reference of this document',
        description: 'An HTML page (Swagger UI, served by the API itself) reading `/v1/openapi.json`.',
        tags: ['operations'],
        security: [],
        responses: {
          '500': internalError,
          '200': {
            description: 'HTML page',
            headers: always,
            content: {
              'text/html': {
                schema: { type: 'string', maxLength: 65536 },
                example: '<!doctype html><html lang="en">…</html>',
              },
            },
          },
        },
      },
    },
  };
}
