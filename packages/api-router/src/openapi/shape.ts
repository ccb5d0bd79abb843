import type { Json } from './components';
import { exampleOf, PATH_EXAMPLES } from './examples';
import type { OperationDoc } from './types';

interface Parameter extends Json {
  name: string;
  in: string;
  schema?: Json;
}

/**
 * Parameters as client generators and reference pages read them: the generator leaves a field's
 * description and example inside its schema, where most tools do not show them, or drops them
 * (optional query parameters: a `sort` parameter's allowed fields are in its description). They
 * are taken from the input field's own `.meta()`. Path ids get the example of the record they name.
 */
export function describeParameters(
  parameters: Parameter[],
  fieldMeta: Readonly<Record<string, { description?: string; example?: unknown }>>,
  doc: OperationDoc | undefined,
): void {
  for (const parameter of parameters) {
    const schema = parameter.schema ?? {};
    const meta = fieldMeta[parameter.name] ?? {};
    const description = meta.description ?? schema.description;
    if (parameter.description === undefined && typeof description === 'string') {
      parameter.description = description;
    }
    // Said once, where tools show it.
    if (schema.description === parameter.description) delete schema.description;
    const example =
      doc?.query?.[parameter.name] ??
      meta.example ??
      schema.example ??
      (parameter.in === 'path' ? (PATH_EXAMPLES[parameter.name] ?? exampleOf(schema, {})) : schema.default);
    if (example !== undefined && parameter.example === undefined) parameter.example = example;
  }
}

/**
 * Moves an inline request body schema into `components.schemas` under its operation's name, so
 * generated clients get a named type (`SongCreate`) instead of an anonymous one, and adds the
 * example request.
 */
export function nameRequestBody(
  operation: Json,
  name: string,
  schemas: Record<string, Json>,
  doc: OperationDoc | undefined,
): void {
  const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
  const media = body?.content?.['application/json'];
  if (!media) return;
  let schema = media.schema as Json;
  if (typeof schema.$ref !== 'string') {
    if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI: two request bodies want the component name ${name}`);
    }
    schemas[name] = schema;
    media.schema = { $ref: `#/components/schemas/${name}` };
  } else schema = schemas[schema.$ref.split('/').pop()!] ?? {};
  media.example = structuredClone(doc?.request) ?? exampleOf(schema, schemas);
}

/**
 * Parameters that several operations declare identically (a path id, `page`, `limit`) become one
 * component each (`SongId`, `Page`), referenced from those operations: one definition for
 * client generators and readers, and a shorter document. A parameter declared differently
 * somewhere (another description or bound) keeps its own definition there; of several
 * variants, the commonest is shared. A name already taken by a component is left alone.
 */
export function shareParameters(
  paths: Record<string, Record<string, Json>>,
  components: Record<string, Json>,
): void {
  const lists = Object.values(paths).flatMap((item) =>
    Object.values(item).map((operation) => (operation.parameters ?? []) as Json[]),
  );
  const uses = new Map<string, { parameter: Json; count: number }>();
  for (const parameter of lists.flat()) {
    if (typeof parameter.$ref === 'string') continue;
    const key = JSON.stringify(parameter);
    const use = uses.get(key) ?? { parameter, count: 0 };
    use.count++;
    uses.set(key, use);
  }
  const shared = new Map<string, string>();
  const byCount = [...uses].sort(([, a], [, b]) => b.count - a.count);
  for (const [key, { parameter, count }] of byCount) {
    const name = String(parameter.name);
    const component = name.charAt(0).toUpperCase() + name.slice(1);
    if (count < 2 || component in components) continue;
    components[component] = structuredClone(parameter);
    shared.set(key, component);
  }
  for (const list of lists) {
    list.forEach((parameter, index) => {
      const component = shared.get(JSON.stringify(parameter));
      if (component) list[index] = { $ref: `#/components/parameters/${component}` };
    });
  }
}

const FORMAT_LENGTHS: Record<string, number> = { uuid: 36, 'date-time': 20, email: 254 };
const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/**
 * What zod knows but does not write: `int32`/`int64` on every integer from its bounds (int32
 * only when both bounds fit, so no bound is ever dropped or narrowed), and the length that a
 * `uuid`, `date-time` (`YYYY-MM-DDThh:mm:ssZ`) or email string implies. Examples are data, not
 * schemas: they are left alone.
 */
export function addImpliedLimits(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addImpliedLimits(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  const implied = typeof schema.format === 'string' ? FORMAT_LENGTHS[schema.format] : undefined;
  if (schema.type === 'string' && implied !== undefined && schema.maxLength === undefined) {
    schema.maxLength = implied;
  }
  if (schema.type === 'integer' && schema.format === undefined) {
    const fits32 =
      typeof schema.maximum === 'number' &&
      schema.maximum <= INT32.max &&
      typeof schema.minimum === 'number' &&
      schema.minimum >= INT32.min;
    schema.format = fits32 ? 'int32' : 'int64';
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'example' && key !== 'examples') addImpliedLimits(value);
  }
}
