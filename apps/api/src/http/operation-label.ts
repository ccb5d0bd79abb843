import type { ServerResponse } from 'node:http';

/** What a request turned out to be, as far as it was routed. */
export interface RequestLabel {
  /** The procedure (`songs.get`) or service route (`service.health`) that answered it. */
  operation?: string | undefined;
  /** The route template (`/v1/songs/{songId}`, `/trpc/songs.get`): known for a 405 too. */
  route?: string | undefined;
}

const LABELS = new WeakMap<ServerResponse, RequestLabel>();

/**
 * Names what a request is, once the transport has routed it: the request listener reads it when
 * the answer is finished, for the metrics' `operation` label and the trace's span name. A bounded
 * set of names (the procedures, the service routes, their templates), never a path with ids in it.
 * One routing decides it: nothing parses the path a second time to name it.
 */
export function labelRequest(res: ServerResponse, label: RequestLabel): void {
  LABELS.set(res, { ...LABELS.get(res), ...label });
}

export function labelOf(res: ServerResponse): RequestLabel {
  return LABELS.get(res) ?? {};
}

/** The operation's name; `unrouted` for a request no operation took (a 404, a 405, a malformed target). */
export function operationOf(res: ServerResponse): string {
  return LABELS.get(res)?.operation ?? 'unrouted';
}
