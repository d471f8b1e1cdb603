// POST /api/mcp/oauth/register (RFC 7591). Public and cross-origin by design (browser-based MCP
// clients register too); it takes no cookie, so CORS here cannot lend anyone's session.
import { oauthError } from '@tributary/domain';
import { execute, registerOAuthClient } from '@tributary/services';
import express, { Router } from 'express';
import type { HttpContext } from '../http/context.js';
import { publicCors } from './oauth-metadata-routes.js';
import { sendOAuthError } from './oauth-errors.js';

export function oauthRegisterRoutes(ctx: HttpContext, o: { maxBodyBytes: number }): Router {
  const r = Router();
  const json = express.json({ limit: Math.min(o.maxBodyBytes, 64 * 1024), type: () => true });
  r.options('/api/mcp/oauth/register', publicCors);
  r.post('/api/mcp/oauth/register', publicCors, json, async (req, res) => {
    try {
      if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body))
        return sendOAuthError(
          res,
          oauthError('invalid_client_metadata', 'send the metadata as a JSON object'),
          'invalid_client_metadata',
        );
      const { result } = await execute(
        ctx.services,
        registerOAuthClient,
        req.body,
        { kind: 'anonymous' },
        'http',
      );
      res.status(201).setHeader('Cache-Control', 'no-store').json(result);
    } catch (e) {
      sendOAuthError(res, e, 'invalid_client_metadata');
    }
  });
  return r;
}
