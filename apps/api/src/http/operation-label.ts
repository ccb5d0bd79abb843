import type { ServerResponse } from 'node:http';

const OPERATIONS = new WeakMap<ServerResponse, string>();

/**
 * Names the operation a request turned out to be (`songs.get`, `health.ready`), once routed: the
 * request listener reads it when the answer is finished, for the metrics' `operation` label. A
 * bounded set of names (the procedures and the service routes), never a path with ids in it.
 */
export function labelOperation(res: ServerResponse, operation: string): void {
  OPERATIONS.set(res, operation);
}

/** The operation's name; `unrouted` for a request no route took (a 404, a malformed target). */
export function operationOf(res: ServerResponse): string {
  return OPERATIONS.get(res) ?? 'unrouted';
}
