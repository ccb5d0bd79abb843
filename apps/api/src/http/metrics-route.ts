import { carriesToken } from '../runtime/metrics';
import type { Exchange } from './exchange';
import { fail, sendBody, sendError } from './http';
import { labelRequest } from './operation-label';

export interface MetricsRouteOptions {
  /** METRICS_TOKEN: a scraper sends it as `Authorization: Bearer <token>`. */
  token: string;
  exposition(): Promise<{ contentType: string; body: string }>;
}

/**
 * `GET /metrics`, the instance's Prometheus exposition. Outside `/v1` (it is the operator's, not a
 * client's, and not versioned with the API) and outside the request budgets: a scraper's token is
 * not a user. Without the token, or with another one, 401 in the error body every route answers.
 */
export function createMetricsRoute(options: MetricsRouteOptions) {
  return async function metricsRoute(exchange: Exchange): Promise<void> {
    const { req, res, headers } = exchange;
    labelRequest(res, { operation: 'service.metrics', route: '/metrics' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(res, fail('METHOD_NOT_ALLOWED', `${req.method} is not allowed here`), {
        ...headers,
        Allow: 'GET, HEAD',
      });
    }
    if (!carriesToken(req.headers.authorization, options.token)) {
      return sendError(res, fail('UNAUTHORIZED', 'The metrics token is missing or wrong'), headers);
    }
    const { contentType, body } = await options.exposition();
    sendBody(res, 200, body, { ...headers, 'Content-Type': contentType });
  };
}
