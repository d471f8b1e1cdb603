// How every route runs a catalogue operation: the REST aliases (/api/federation/peers, /api/mcp/token,
// the OAuth endpoints, the pages' forms) and /api/ops/<name> alike. Typed by the operation, so a route
// gets the operation's own result type and needs no casts.
import { execute, type ExecuteResult, type Operation, type Principal } from '@tributary/services';
import type { Request, RequestHandler } from 'express';
import { principalOf, type HttpContext } from './context.js';

/** Who runs it: the session the request carries, a principal the route already resolved, or nobody. */
type RouteCaller = Request | Principal | 'anonymous';

const ANONYMOUS: Principal = { kind: 'anonymous' };

async function principalFor(ctx: HttpContext, caller: RouteCaller): Promise<Principal> {
  if (caller === 'anonymous') return ANONYMOUS;
  return 'kind' in caller ? caller : principalOf(ctx, caller);
}

/** Runs `op` on the HTTP surface through the one pipeline (`execute`). */
export async function runOperation<I, O>(
  ctx: HttpContext,
  op: Operation<I, O>,
  input: unknown,
  caller: RouteCaller,
): Promise<ExecuteResult<O>> {
  return execute(ctx.services, op, input, await principalFor(ctx, caller), 'http');
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
