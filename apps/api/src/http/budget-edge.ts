import { AppError, type Context, type Operation, refusesCaller } from '@music/api-router';
import type { BudgetState, Budgets } from '../runtime/budgets';

/** The RateLimit headers of an answer under a budget (`RateLimit-Reset` in seconds). */
export function budgetHeaders(state: BudgetState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
    'RateLimit-Policy': `${state.limit};w=60`,
  };
}

/** The 429 of a caller over its budget, `Retry-After` being the rest of the window. */
export function overBudget(state: BudgetState): AppError {
  return new AppError(
    'TOO_MANY_REQUESTS',
    `Request budget spent (${state.limit} a minute); try again in ${state.resetSeconds} s`,
    { retryAfter: state.resetSeconds },
  );
}

/**
 * The budget step of an operation on either transport, once its caller is known: counts the request against
 * the API key's own budget, the user's, or the client address's when anonymous (a refused token counts there too),
 * adds the RateLimit headers to the answer's headers (errors included) and throws the 429 when
 * over. The contract answers 401 before 429: a request that will get its 401 is counted but
 * not refused here. Synchronous unless the budget must wait for the database (a promise then).
 */
export function chargeBudget(
  budgets: Budgets | undefined,
  ctx: Pick<Context, 'actor' | 'clientAddress' | 'tokenRefused'>,
  operation: Pick<Operation, 'isPublic' | 'traits'>,
  headers: Record<string, string>,
): undefined | Promise<void> {
  // Every operation is counted today; the trait says so in one place for the edge and the document.
  if (!budgets || !operation.traits.counted) return undefined;
  const taken = budgets.take({
    userId: ctx.actor?.user.id,
    apiKeyId: ctx.actor?.apiKey?.id,
    address: ctx.clientAddress,
  });
  // Decided in memory nearly always; a caller near its limit waits for the database's count.
  if (taken instanceof Promise) return taken.then((state) => settle(budgets, state, ctx, operation, headers));
  settle(budgets, taken, ctx, operation, headers);
  return undefined;
}

function settle(
  budgets: Budgets,
  state: BudgetState | null,
  ctx: Pick<Context, 'actor' | 'tokenRefused'>,
  operation: Pick<Operation, 'isPublic'>,
  headers: Record<string, string>,
): void {
  if (!state) return;
  Object.assign(headers, budgetHeaders(state));
  if (state.allowed || refusesCaller(operation.isPublic, ctx)) return;
  budgets.refused(ctx.actor?.apiKey ? 'key' : ctx.actor ? 'user' : 'address');
  throw overBudget(state);
}
