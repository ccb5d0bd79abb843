import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import {
  errorSchemas,
  headerComponents,
  type Json,
  parameterComponents,
  parameterRef,
} from './openapi/components';
import { exampleOf } from './openapi/examples';
import { API_VERSION, INFO_DESCRIPTION, TAG_DESCRIPTIONS } from './openapi/info';
import { bodySchemaName, OPERATION_DOCS } from './openapi/operations';
import { ResponseComponents } from './openapi/response-components';
import { errorResponses, type OperationFacts, successResponses } from './openapi/responses';
import { serviceOperations } from './openapi/service-routes';
import { addImpliedLimits, describeParameters, nameRequestBody, shareParameters } from './openapi/shape';
import { operations } from './procedures';
import { appRouter } from './router';
import { SCOPES } from './scopes';
import type { Traits } from './traits';

type Document = OpenAPIObject & {
  paths: Record<string, Record<string, Json>>;
  components: { schemas?: Record<string, Json> } & Json;
};

/**
 * Who may call an operation: a session's access token, and an API key where one may (OpenAPI
 * 3.1 lets a bearer requirement list the roles it needs: a key's requirement names the scope).
 */
function securityOf(traits: Traits): Json[] {
  if (traits.security === 'none') return [];
  const key = traits.keyAccess;
  const byKey = key === 'session' ? [] : [{ apiKeyAuth: key === 'any' ? [] : [key] }];
  const signedIn = [{ bearerAuth: [] }, ...byKey];
  // Anonymous, or with a token that changes what is allowed (version 1.1).
  return traits.security === 'optional' ? [{}, ...signedIn] : signedIn;
}

/** A file's answer: its media types, each text with an example, and the name to save it as. */
function describeDownload(responses: Record<string, Json>, types: Record<string, string>): void {
  const ok = responses['200'] as { content?: Json; headers?: Record<string, Json> };
  ok.content = Object.fromEntries(
    Object.entries(types).map(([type, description]) => [
      type,
      { schema: { type: 'string', description }, example: FILE_EXAMPLES[type] ?? '' },
    ]),
  );
  ok.headers = { ...ok.headers, 'Content-Disposition': { $ref: '#/components/headers/Content-Disposition' } };
}

/**
 * A file taken as the body (an import): the body is the file, in one of its media types; the
 * operation's other input fields, which the generator put in a JSON body, are query parameters.
 */
function describeUpload(operation: Json, parameters: Json[], types: Record<string, string>): void {
  const generated = (operation.requestBody as { content?: Record<string, { schema?: Json }> } | undefined)
    ?.content;
  const schema = generated?.['application/json']?.schema as
    | { properties?: Record<string, Json & { description?: string }>; required?: string[] }
    | undefined;
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (name === 'file') continue;
    const { description, ...fieldSchema } = property;
    parameters.push({
      in: 'query',
      name,
      required: false,
      schema: fieldSchema,
      ...(description ? { description } : {}),
    });
  }
  operation.parameters = parameters;
  operation.requestBody = {
    required: true,
    content: Object.fromEntries(
      Object.entries(types).map(([type, description]) => [
        type,
        // 100 MB at most: as many characters at most.
        {
          schema: { type: 'string', maxLength: 100 * 1024 * 1024, description },
          example: FILE_EXAMPLES[type] ?? '',
        },
      ]),
    ),
  };
}

const FILE_EXAMPLES: Record<string, string> = {
  'text/csv':
    'title,album,genre,duration,releaseYear,isrc,externalId,artists\r\n' +
    'Blue in Green,Kind of Blue,Jazz,337,1959,USSM15900113,,Miles Davis;Bill Evans\r\n',
  'application/x-ndjson':
    '{"title":"Blue in Green","album":"Kind of Blue","genre":"Jazz","duration":337,"releaseYear":1959,' +
    '"isrc":"USSM15900113","externalId":null,"artists":["Miles Davis","Bill Evans"]}\n',
};

const API_KEY_SCHEME =
  'An API key from `POST /api-keys` (`mc_` and 40 characters), sent as `Authorization: Bearer mc_…`. ' +
  'It acts as its owner within its scopes, never beyond what the owner’s role allows at that moment; ' +
  'each operation names the scope it needs. Outside them: 403 with `WWW-Authenticate: Bearer ' +
  'error="insufficient_scope", scope="…"`. Keys never sign in or out, change an email or a password, ' +
  `or manage keys; each has its own request budget. Scopes: ${SCOPES.map((s) => `\`${s}\``).join(', ')}.`;

/**
 * The `/v1` OpenAPI 3.1 document. trpc-to-openapi derives paths, parameters and schemas from the
 * procedures; what it cannot know is added here from each operation's route metadata and its
 * traits (./traits.ts, the same the HTTP transports read): the real success status, the contract's error bodies
 * and which errors each operation answers, the HTTP headers of version 1.1 (ETag and the
 * conditional requests, Idempotency-Key, RateLimit, Link, WWW-Authenticate), named request
 * bodies, examples, and the prose of ./openapi/operations.ts. An operation added to the router
 * gets all of it without a change here. What many operations answer or take alike is written
 * once, in `components` (./openapi/response-components.ts; shared parameters, ./openapi/shape.ts),
 * and referenced: an operation keeps its own wording of an error beside the reference.
 */
export function createOpenApiDocument(options: { baseUrl?: string } = {}): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Music catalogue API',
    description: INFO_DESCRIPTION,
    version: API_VERSION,
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
      apiKeyAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'mc_ API key',
        description: API_KEY_SCHEME,
      },
    },
  }) as Document;
  document.components.schemas ??= {};
  const schemas = document.components.schemas;

  const facts = operations.flatMap(({ path, route, traits, fieldMeta }) => {
    if (!route) return [];
    const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Json | undefined;
    if (!operation) throw new Error(`OpenAPI generator skipped ${route.method} ${route.path}`);
    return [{ procedurePath: path, route, traits, operation, fieldMeta }];
  });
  const responses = new ResponseComponents();

  for (const fact of facts) {
    const { procedurePath, route, traits, operation, fieldMeta } = fact;
    const doc = OPERATION_DOCS[procedurePath];
    const parameters = (operation.parameters ?? []) as Parameters<typeof describeParameters>[0];
    describeParameters(parameters, fieldMeta, doc);
    if (route.upload) describeUpload(operation, parameters, route.upload);
    else nameRequestBody(operation, bodySchemaName(procedurePath), schemas, doc);
    const operationFacts: OperationFacts = {
      route,
      traits,
      doc,
      hasBody: operation.requestBody !== undefined && !route.upload,
      hasQuery: parameters.some((p) => p.in === 'query'),
      hasSort: parameters.some((p) => p.in === 'query' && p.name === 'sort'),
      hasCursor: parameters.some((p) => p.in === 'query' && p.name === 'cursor'),
      hasPathParameters: parameters.some((p) => p.in === 'path'),
    };

    const generated = (operation.responses as Record<string, Json>)['200'];
    const content = generated?.content as Record<string, { schema?: Json }> | undefined;
    const example =
      structuredClone(doc?.response) ?? exampleOf(content?.['application/json']?.schema, schemas);
    operation.responses = {
      ...successResponses(operationFacts, generated, example, responses),
      ...errorResponses(operationFacts, responses),
    };
    if (route.download) describeDownload(operation.responses as Record<string, Json>, route.download);
    operation.parameters = [
      ...parameters,
      ...(traits.conditionalRead ? [parameterRef('IfNoneMatch')] : []),
      ...(traits.conditionalWrite ? [parameterRef('IfMatch')] : []),
      ...(traits.idempotent ? [parameterRef('IdempotencyKey')] : []),
    ];
    // The integrator's overview first, then what the procedure itself says.
    operation.description = [doc?.description, route.description].filter(Boolean).join('\n\n') || undefined;
    operation.security = securityOf(traits);
  }

  // Copies: every document is its own, whatever a caller does to it (the service routes share
  // their header maps within one document too).
  Object.assign(document.paths, structuredClone(serviceOperations(responses)));
  Object.assign(schemas, structuredClone(errorSchemas));
  const sharedParameters = structuredClone(parameterComponents);
  Object.assign(document.components, {
    responses: responses.toJson(),
    headers: structuredClone(headerComponents),
    parameters: sharedParameters,
  });
  const tags = [...new Set(facts.map((f) => f.route.tag)), 'operations'];
  document.tags = tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? '' }));
  document.servers = [
    {
      url: options.baseUrl ?? '/v1',
      description:
        'This deployment (production, staging or local): relative to the address serving this document',
      // Served to other teams' apps over the network: not an internal-only server.
      'x-internal': false,
    } as NonNullable<OpenAPIObject['servers']>[number],
  ];
  addImpliedLimits(document.components);
  addImpliedLimits(document.paths);
  shareParameters(document.paths, sharedParameters);
  return document;
}
