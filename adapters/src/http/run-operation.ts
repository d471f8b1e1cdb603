// How every route runs a catalogue operation: the REST aliases (/api/federation/peers, /api/mcp/token,
// the OAuth endpoints, the pages' forms) and /api/ops/<name> alike. Typed by the operation, so a route
// gets the operation's own result type and needs no casts.
import { execute, outcomeOf, type ExecuteResult, type Operation, type Principal } from '@tributary/services';
import type { Request, RequestHandler } from 'express';
import { principalOf, type HttpContext } from './context.js';

/** Who runs it: the session the request carries, a principal the route already resolved, or nobody. */
type RouteCaller = Request | Principal | 'anonymous';

const ANONYMOUS: Principal = { kind: 'anonymous' };

async function principalFor(ctx: HttpContext, caller: RouteCaller): Promise<Principal> {
  if (caller === 'anonymous') return ANONYMOUS;
  return 'kind' in caller ? caller : principalOf(ctx, caller);
}

/**
 * The request's `Idempotency-Key` as sent (docs/api.md#idempotency); the pipeline refuses a malformed
 * one, so a key the client believes it sent is never dropped.
 */
export function idempotencyKeyOf(req: Pick<Request, 'headers'>): string | undefined {
  const raw = req.headers['idempotency-key'];
  return Array.isArray(raw) ? raw.join(',') : raw;
}

/**
 * Runs `op` on the HTTP surface through the one pipeline (`execute`), with the request's
 * `Idempotency-Key` (taken from `caller` when it is the request, else from `from`).
 */
export async function runOperation<I, O>(
  ctx: HttpContext,
  op: Operation<I, O>,
  input: unknown,
  caller: RouteCaller,
  from?: Request,
): Promise<ExecuteResult<O>> {
  const req = from ?? (typeof caller === 'object' && 'headers' in caller ? caller : undefined);
  const idempotencyKey = req ? idempotencyKeyOf(req) : undefined;
  const started = performance.now();
  let principal: Principal;
  try {
    principal = await principalFor(ctx, caller);
  } catch (e) {
    // The session could not be looked up (the database is down): the call is answered all the same, so
    // it is counted as the pipeline would count it (docs/operations.md#metrics).
    const { outcome, errorCode } = outcomeOf(e);
    const seconds = (performance.now() - started) / 1000;
    ctx.services.metrics?.operation(
      op.name,
      op.kind,
      'http',
      outcome === 'ok' ? 'error' : outcome,
      errorCode,
      seconds,
      e,
    );
    throw e;
  }
  const out = await execute(ctx.services, op, input, principal, 'http', { idempotencyKey });
  // The answer is an earlier call's: say so on whatever route answers it.
  if (out.replayed && req?.res && !req.res.headersSent) req.res.setHeader('Idempotent-Replayed', 'true');
  return out;
}

/** A REST alias of an operation: the request body is its input, the answer `{ result }` with `status`. */
export function operationRoute<I, O>(
  ctx: HttpContext,
  op: Operation<I, O>,
  o: { status?: number; input?: (req: Request) => unknown } = {},
): RequestHandler {
  return async (req, res) => {
    const input = o.input ? o.input(req) : (req.body ?? {});
    const { result } = await runOperation(ctx, op, input, req);
    res.status(o.status ?? 200).json({ result });
  };
}
