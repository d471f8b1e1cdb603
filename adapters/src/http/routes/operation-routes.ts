// Every catalogue operation is callable over HTTP by a signed-in person at POST /api/ops/<name>;
// the name is the operation id in the OpenAPI document and the MCP tool name.
import { getOperation } from '@tributary/services';
import { notFound } from '@tributary/domain';
import { Router } from 'express';
import type { HttpContext } from '../context.js';
import { runOperation } from '../run-operation.js';

export function operationRoutes(ctx: HttpContext): Router {
  const r = Router();
  r.post('/:name', async (req, res) => {
    const op = getOperation(req.params.name);
    // Public operations have their own routes (they set cookies); here every call needs a session.
    if (!op || op.public) throw notFound('operation.not_found', `no operation ${req.params.name}`);
    const { result, commit } = await runOperation(ctx, op, req.body ?? {}, req);
    res.status(op.kind === 'command' && commit && commit.events.length > 0 ? 201 : 200).json({
      result,
      ...(commit && {
        events: commit.events.map(({ id, type, stream, streamVersion }) => ({
          id,
          type,
          stream,
          streamVersion,
        })),
      }),
    });
  });
  return r;
}
