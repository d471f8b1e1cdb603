// POST /api/mcp/oauth/register (RFC 7591). Public and cross-origin by design (browser-based MCP
// clients register too); it takes no cookie, so CORS here cannot lend anyone's session.
import { oauthError } from '@tributary/domain';
import { registerOAuthClient } from '@tributary/services';
import { Router } from 'express';
import { type HttpContext, jsonBodyParser, rateLimited, runOperation } from '../http/index.js';
import { publicCors } from '../well-known/index.js';
import { sendOAuthError } from './oauth-errors.js';

export function oauthRegisterRoutes(ctx: HttpContext, o: { maxBodyBytes: number }): Router {
  const r = Router();
  const json = jsonBodyParser({ limit: Math.min(o.maxBodyBytes, 64 * 1024), type: () => true });
  // Every accepted registration is a permanent event: attempts are counted per client address before the
  // body is read. RFC 7591 has no error code for this; temporarily_unavailable is OAuth's own for "not
  // now", and the 429 with Retry-After says when.
  const limited = rateLimited(ctx.limits.registration, (res, retryAfter) =>
    res
      .status(429)
      .setHeader('Cache-Control', 'no-store')
      .json({
        error: 'temporarily_unavailable',
        error_description: `too many registrations from this address; retry after ${retryAfter} s`,
      }),
  );
  r.options('/api/mcp/oauth/register', publicCors);
  r.post('/api/mcp/oauth/register', publicCors, limited, json, async (req, res) => {
    try {
      if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body))
        return sendOAuthError(
          res,
          oauthError('invalid_client_metadata', 'send the metadata as a JSON object'),
          'invalid_client_metadata',
        );
      const { result } = await runOperation(ctx, registerOAuthClient, req.body, 'anonymous');
      res.status(201).setHeader('Cache-Control', 'no-store').json(result);
    } catch (e) {
      sendOAuthError(res, e, 'invalid_client_metadata');
    }
  });
  return r;
}
