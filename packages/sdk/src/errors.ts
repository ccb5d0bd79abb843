import type { components } from './generated/openapi.js';

/** Every error but a validation failure: `code` is stable, `message` is for humans. */
export type ApiError = components['schemas']['ApiError'];
/** A 422: `errors` names each field that failed. */
export type ValidationError = components['schemas']['ValidationError'];
/** Any error body of the API; narrow on `code` (`VALIDATION_FAILED` has `errors`). */
export type ErrorBody = ApiError | ValidationError;

function isErrorBody(body: unknown): body is ErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    'code' in body &&
    typeof body.code === 'string' &&
    'message' in body &&
    typeof body.message === 'string'
  );
}

/**
 * An answer that is not the success the SDK's own helpers (`signIn`, `list`...) need. Calls made
 * with the typed methods (`client.GET(...)`) do not throw: they answer `{ data, error, response }`.
 */
export class MusicApiError extends Error {
  override readonly name = 'MusicApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The error body when the API sent one in its shape, else undefined. */
  readonly body: ErrorBody | undefined;
  /** The API's `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(status: number, body: unknown, requestId: string | null) {
    const error = isErrorBody(body) ? body : undefined;
    super(error ? `${status} ${error.code}: ${error.message}` : `the API answered ${status}`);
    this.status = status;
    this.body = error;
    this.requestId = requestId ?? undefined;
  }

  /** The error's stable code (`NOT_FOUND`, `TOO_MANY_REQUESTS`...), when the API sent one. */
  get code(): ErrorBody['code'] | undefined {
    return this.body?.code;
  }

  /** The error of an answer whose body openapi-fetch already read (its `error`). */
  static from(response: Response, body: unknown): MusicApiError {
    return new MusicApiError(response.status, body, response.headers.get('X-Request-Id'));
  }

  /** The error of an answer that was not the one expected; reads its body. */
  static async of(response: Response): Promise<MusicApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return new MusicApiError(response.status, body, response.headers.get('X-Request-Id'));
  }
}
