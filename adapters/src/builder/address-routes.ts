// REST for site addresses (docs/builder.md#addresses): POST claims, DELETE releases, each running its
// catalogue operation for the session. DELETE takes its input as a JSON body or as query parameters.
import { claimAddress, releaseAddress } from '@tributary/services';
import { Router, type Request, type RequestHandler } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';

/** A body when one was sent, else the query string (a DELETE often carries none). */
function bodyOrQuery(req: Request): unknown {
  const body = req.body as unknown;
  if (body && typeof body === 'object' && Object.keys(body).length > 0) return body;
  return { ...(req.query as Record<string, unknown>) };
}

export function addressRoutes(ctx: HttpContext, o: { browserWrites: RequestHandler[] }): Router {
  const r = Router();
  r.post('/address', ...o.browserWrites, async (req, res) => {
    const { result, commit } = await runOperation(ctx, claimAddress, req.body ?? {}, req);
    res.status(commit?.events.length ? 201 : 200).json({ result });
  });
  r.delete('/address', ...o.browserWrites, async (req, res) => {
    const { result } = await runOperation(ctx, releaseAddress, bodyOrQuery(req), req);
    res.status(200).json({ result });
  });
  return r;
}
