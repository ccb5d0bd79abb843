import { createOpenApiDocument } from '@music/api-router';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Holds every `/v1` response the HTTP suites receive against the OpenAPI document the API
 * serves: the status must be one the operation lists, a 204 must be empty, a JSON body must
 * match the listed schema and documented required headers must be there. A response the
 * document does not describe fails the test that received it, so the document cannot drift
 * from what the server does. (Unknown paths and unsupported methods are the router's generic
 * 404/405, described once in the document's info, not per operation.)
 */
type Json = Record<string, unknown>;
interface Operation {
  template: string;
  pattern: RegExp;
  responses: Record<string, Json>;
  pointer: string;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
interface State {
  operations: Map<string, Operation[]>;
  headers: Record<string, Json>;
  ajv: Ajv2020;
  cache: Map<string, ValidateFunction>;
}
let state: State | undefined;

function load(): State {
  if (state) return state;
  const document = createOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, Json>>;
    components: { headers?: Record<string, Json> };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi' });
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
  state = { operations, headers: document.components.headers ?? {}, ajv, cache: new Map() };
  return state;
}

/** Returns what is wrong with this response by the document, or null when it is described. */
export function checkAgainstDocument(
  method: string,
  pathAndQuery: string,
  status: number,
  headers: Headers,
  text: string,
): string | null {
  const { operations, headers: headerComponents, ajv, cache } = load();
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
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response)
    return `${where}: status not in the document (${Object.keys(operation.responses).join(', ')})`;
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
  const key = `${operation.pointer}/${status in operation.responses ? status : 'default'}`;
  let validate = cache.get(key);
  if (!validate) {
    const code = status in operation.responses ? String(status) : 'default';
    validate = ajv.compile({ $ref: `${operation.pointer}/${code}/content/application~1json/schema` });
    cache.set(key, validate);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: invalid JSON`;
  }
  if (validate(body)) return null;
  return `${where}: body does not match the document: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`;
}
