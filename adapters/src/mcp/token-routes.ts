// The token endpoints, for a signed-in person (session cookie only: a bearer never mints, lists or
// revokes here). Each is the catalogue operation of the same name, so they behave exactly like the
// MCP tools `svc.tokens.list` / `svc.tokens.revoke` and the HTTP operation `svc.tokens.issue`.
import { execute, issueToken, listTokens, revokeToken, type Operation } from '@tributary/services';
import express, { Router, type Request } from 'express';
import { requireJson, sameOrigin } from '../http/app.js';
import { principalOf, type HttpContext } from '../http/context.js';

export function tokenRoutes(ctx: HttpContext, o: { maxBodyBytes: number }): Router {
  const r = Router();
  const jsonBody = express.json({ limit: o.maxBodyBytes, type: ['application/json', 'application/*+json'] });
  const run = async <I, O>(op: Operation<I, O>, req: Request, input: unknown) =>
    (await execute(ctx.services, op, input, await principalOf(ctx, req), 'http')).result;

  r.use('/api/mcp/token', sameOrigin(ctx.baseUrl), requireJson, jsonBody, (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  r.post('/api/mcp/token', async (req, res) => {
    const issued = await run(issueToken, req, req.body ?? {});
    const expiresIn = Math.round(
      (new Date(issued.expiresAt).getTime() - ctx.services.clock.now().getTime()) / 1000,
    );
    res.status(201).json({ ...issued, expiresIn });
  });
  r.get('/api/mcp/token', async (req, res) => {
    res.json(await run(listTokens, req, {}));
  });
  r.post('/api/mcp/token/revoke', async (req, res) => {
    res.json(await run(revokeToken, req, req.body ?? {}));
  });
  return r;
}
