import { createOpenApiDocument } from '@music/api-router';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Holds every `/v1` response the HTTP suites receive against the OpenAPI document the API
 * serves: the status must be one the operation lists, a 204 must be empty, a JSON body must
 * match the listed schema and documented required headers must be there. A response the
 * document does not describe fails the test that received it, so the document cannot drift
 * from what the server does. A listed response may be a reference to `components.responses`
 * (the errors every operation shares): it is followed, and one that leads nowhere fails too.
 * (Unknown paths and unsupported methods are the router's generic 404/405, described once in
 * the document's info, not per operation.)
 */
type Json = Record<string, unknown>;
interface Operation {
  template: string;
  pattern: RegExp;
  responses: Record<string, Json>;
  pointer: string;
}
/** A response as the document describes it, and where it is (for Ajv). */
interface Described {
  response: Json;
  pointer: string;
}
interface Document {
  paths: Record<string, Record<string, Json>>;
  components?: { headers?: Record<string, Json>; responses?: Record<string, Json> };
}
export type ResponseCheck = (
  method: string,
  pathAndQuery: string,
  status: number,
  headers: Headers,
  text: string,
) => string | null;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const RESPONSE_REF = /^#\/components\/responses\/([^/]+)$/;

/**
 * The response an operation lists for `key`, followed through its `$ref` into
 * `components.responses` when it is a reference (the `description` beside a reference only
 * rewords it). A reference to anything else, or to a component that does not exist, is a
 * response the document does not describe: the message says why.
 */
function describedResponse(
  operation: Operation,
  key: string,
  components: Record<string, Json>,
): Described | string {
  const listed = operation.responses[key]!;
  if (listed.$ref === undefined) return { response: listed, pointer: `${operation.pointer}/${key}` };
  const name = typeof listed.$ref === 'string' ? RESPONSE_REF.exec(listed.$ref)?.[1] : undefined;
  const component = name === undefined ? undefined : components[name];
  if (!component || component.$ref !== undefined)
    return `a reference to no response (${String(listed.$ref)})`;
  return { response: component, pointer: `openapi#/components/responses/${name}` };
}

/** A checker of responses against `document` (the served one, in the suites). */
export function createResponseChecker(document: Document): ResponseCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi' });
  const headerComponents = document.components?.headers ?? {};
  const responseComponents = document.components?.responses ?? {};
  const cache = new Map<string, ValidateFunction>();
  const operations = new Map<string, Operation[]>();
  for (const [template, item] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      const list = operations.get(method.toUpperCase()) ?? [];
      const escaped = template.replace(/~/g, '~0').replace(/\//g, '~1');
      list.push({
        template,
        pattern,
        responses: (operation.responses ?? {}) as Record<string, Json>,
        pointer: `openapi#/paths/${escaped}/${method}/responses`,
      });
      operations.set(method.toUpperCase(), list);
    }
  }
  // Static segments win over parameters (`/auth/me` before `/users/{userId}`-like templates).
  for (const list of operations.values()) {
    list.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  return (method, pathAndQuery, status, headers, text) => {
    const path = pathAndQuery.split('?')[0]!.replace(/\/+$/, '') || '/';
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null; // not a path any operation could match
    }
    const operation = operations
      .get(method.toUpperCase())
      ?.find((op) => op.pattern.test(path) || op.pattern.test(decoded));
    if (!operation) return null;
    const where = `${method.toUpperCase()} ${operation.template} -> ${status}`;
    const key = String(status) in operation.responses ? String(status) : 'default';
    if (!(key in operation.responses))
      return `${where}: status not in the document (${Object.keys(operation.responses).join(', ')})`;
    const described = describedResponse(operation, key, responseComponents);
    if (typeof described === 'string') return `${where}: ${described}`;
    const { response, pointer } = described;
    if ((status === 204 || status === 304) && text !== '') return `${where}: a ${status} must have no body`;
    for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const ref = typeof declared.$ref === 'string' ? declared.$ref.split('/').pop() : undefined;
      const header = ref ? headerComponents[ref] : declared;
      if (header?.required && !headers.has(name)) return `${where}: missing documented header ${name}`;
    }
    if (status === 204 || status === 304) return null;
    const content = response.content as Record<string, Json> | undefined;
    if (!content) return text === '' ? null : `${where}: a body the document does not describe`;
    if (!content['application/json']) return null;
    if (!headers.get('content-type')?.startsWith('application/json')) return `${where}: not JSON`;
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${pointer}/content/application~1json/schema` });
      cache.set(pointer, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${where}: invalid JSON`;
    }
    if (validate(body)) return null;
    return `${where}: body does not match the document: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`;
  };
}

let served: ResponseCheck | undefined;

/** Returns what is wrong with this response by the served document, or null when it is described. */
export const checkAgainstDocument: ResponseCheck = (...args) => {
  served ??= createResponseChecker(createOpenApiDocument() as unknown as Document);
  return served(...args);
};
