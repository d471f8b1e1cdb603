// The token endpoints, for a signed-in person (session cookie only: a bearer never mints, lists or
// revokes here). Each is the catalogue operation of the same name, so they behave exactly like the
// MCP tools `svc.tokens.list` / `svc.tokens.revoke` and the HTTP operation `svc.tokens.issue`.
import { issueToken, listTokens, revokeToken } from '@tributary/services';
import { Router } from 'express';
import { jsonBodyParser, requireJson, sameOrigin, type HttpContext, runOperation } from '../http/index.js';

export function tokenRoutes(ctx: HttpContext, o: { maxBodyBytes: number }): Router {
  const r = Router();
  const jsonBody = jsonBodyParser({
    limit: o.maxBodyBytes,
    type: ['application/json', 'application/*+json'],
  });

  r.use('/api/mcp/token', sameOrigin(ctx.baseUrl), requireJson, jsonBody, (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  r.post('/api/mcp/token', async (req, res) => {
    const { result: issued } = await runOperation(ctx, issueToken, req.body ?? {}, req);
    const expiresIn = Math.round(
      (new Date(issued.expiresAt).getTime() - ctx.services.clock.now().getTime()) / 1000,
    );
    res.status(201).json({ ...issued, expiresIn });
  });
  r.get('/api/mcp/token', async (req, res) => {
    res.json((await runOperation(ctx, listTokens, {}, req)).result);
  });
  r.post('/api/mcp/token/revoke', async (req, res) => {
    res.json((await runOperation(ctx, revokeToken, req.body ?? {}, req)).result);
  });
  return r;
}
