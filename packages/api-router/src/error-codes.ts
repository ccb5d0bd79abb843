/**
 * The closed set of error codes clients branch on, with the HTTP status each one answers. The
 * one declaration of them: the services throw them, both transports send them, the document
 * lists them and the console words them. Browser-safe (no imports).
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400 },
  UNAUTHORIZED: { status: 401 },
  FORBIDDEN: { status: 403 },
  NOT_FOUND: { status: 404 },
  METHOD_NOT_ALLOWED: { status: 405 },
  CONFLICT: { status: 409 },
  GONE: { status: 410 },
  PRECONDITION_FAILED: { status: 412 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  VALIDATION_FAILED: { status: 422 },
  TOO_MANY_REQUESTS: { status: 429 },
  INTERNAL_SERVER_ERROR: { status: 500 },
  SERVICE_UNAVAILABLE: { status: 503 },
} as const satisfies Record<string, { status: number }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A 422 reports at most this many field errors (the first ones), so its size stays bounded. */
export const MAX_FIELD_ERRORS = 100;

/**
 * The longest error message (and field error message) a client is sent, whatever it sent: a
 * message that names what was wrong with the input would otherwise grow with the input.
 */
export const MAX_MESSAGE_LENGTH = 1000;

export interface FieldError {
  /** Dotted path of the offending field, e.g. `email` or `artistIds.1`. */
  field: string;
  message: string;
}
