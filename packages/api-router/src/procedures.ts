import type { AnyTRPCProcedure } from '@trpc/server';
import { z } from 'zod';
import type { Context } from './context';
import { appRouter } from './router';
import { deriveTraits, type Traits } from './traits';
import type { Meta, RouteMeta } from './trpc';

/**
 * The procedures as data: the one seam between the HTTP transports and tRPC. The REST
 * dispatcher, the OpenAPI document and the `/trpc` fast path read operations from here and
 * nothing else of tRPC's or zod's insides; those insides (the router's procedure record, a
 * procedure's definition and call signature, a zod schema's wrappers) appear in this file only,
 * next to the patch of @trpc/server (patches/), through public APIs where there are any.
 */
export interface Operation {
  /** Dotted tRPC path, e.g. `songs.get`. */
  path: string;
  kind: 'query' | 'mutation';
  /** Needs no caller: declared once, by building it with `publicProcedure`. */
  isPublic: boolean;
  /** How it is served on `/v1` (every operation is, today). */
  route: RouteMeta | undefined;
  /** Its HTTP traits (ETag, Link, Idempotency-Key, conditions, budget), decided once (./traits.ts). */
  traits: Traits;
  /** The fields of its object input (none when it takes no input). */
  inputFields: readonly string[];
  /** The input fields that take numbers: a query string's text is converted for them. */
  numberFields: ReadonlySet<string>;
  /**
   * What each input field says of itself (`.meta()`: description, example), for the document:
   * trpc-to-openapi drops it from optional query parameters.
   */
  fieldMeta: Readonly<Record<string, { description?: string; example?: unknown }>>;
  /**
   * Runs the procedure as `createCaller` would: every middleware, input and output validation.
   * The input is read lazily, by the input parser, so it runs after the caller check: a request
   * without a token is refused before its body is looked at. Called directly rather than through
   * `createCaller(ctx)`, whose per-request proxy, path join and lookup cost several awaits.
   */
  call(ctx: Context, readInput: () => Promise<unknown>): Promise<unknown>;
}

type Procedure = AnyTRPCProcedure & {
  _def: { type: 'query' | 'mutation'; meta?: Meta; inputs: unknown[]; output?: unknown };
};

/** The schema under `.optional()`, `.default()` and `.nullable()`. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner;
}

/** The fields of an object schema (under `.optional()` and the like); none for anything else. */
export function fieldsOf(schema: unknown): ReadonlySet<string> {
  const inner = schema instanceof z.ZodType ? unwrapped(schema) : undefined;
  return new Set(inner instanceof z.ZodObject ? Object.keys(inner.shape) : []);
}

function toOperation(path: string, procedure: Procedure): Omit<Operation, 'traits'> {
  const { type, meta, inputs } = procedure._def;
  const shape: Record<string, z.ZodType> = inputs[0] instanceof z.ZodObject ? inputs[0].shape : {};
  const inputFields = Object.keys(shape);
  return {
    path,
    kind: type,
    isPublic: meta?.public === true,
    route: meta?.route,
    inputFields,
    numberFields: new Set(inputFields.filter((key) => unwrapped(shape[key]!) instanceof z.ZodNumber)),
    fieldMeta: Object.fromEntries(inputFields.map((key) => [key, shape[key]!.meta() ?? {}])),
    call: (ctx, readInput) =>
      procedure({ ctx, path, getRawInput: readInput, type, signal: undefined, batchIndex: 0 }),
  };
}

/** A procedure without a route is not served on `/v1`: only its budget applies (`/trpc`). */
const UNROUTED: Traits = {
  list: false,
  record: false,
  located: false,
  conditionalRead: false,
  conditionalWrite: false,
  idempotent: false,
  counted: true,
  security: 'bearer',
  keyAccess: 'session',
  download: false,
  upload: false,
};

function withTraits(procedures: Record<string, Procedure>): Operation[] {
  const entries = Object.entries(procedures).map(([path, procedure]) => ({
    operation: toOperation(path, procedure),
    output: procedure._def.output,
  }));
  const routed = entries.filter((e) => e.operation.route !== undefined);
  const traits = deriveTraits(
    routed.map(({ operation, output }) => {
      const route = operation.route!;
      const params = route.path.split('/').filter((s) => s.startsWith('{'));
      return {
        route,
        isPublic: operation.isPublic,
        outputFields: fieldsOf(output),
        bodyFields: operation.inputFields.filter((field) => !params.includes(`{${field}}`)),
      };
    }),
  );
  const byOperation = new Map(routed.map((e, i) => [e.operation, traits[i]!]));
  return entries.map(({ operation }) => ({ ...operation, traits: byOperation.get(operation) ?? UNROUTED }));
}

const byPath = new Map(
  withTraits(appRouter._def.procedures as unknown as Record<string, Procedure>).map((operation) => [
    operation.path,
    operation,
  ]),
);

/** Every operation, in the router's order. */
export const operations: readonly Operation[] = [...byPath.values()];

/** The operation at a dotted path (`songs.get`), or undefined when there is none. */
export function operationAt(path: string): Operation | undefined {
  return byPath.get(path);
}
