// POST /api/mcp/oauth/token (OAuth 2.1 token endpoint; form-encoded, public clients identified by
// client_id). Answers RFC 6749 errors with Cache-Control: no-store; never problem+json.
import { oauthError } from '@tributary/domain';
import { exchangeOAuthCode, refreshOAuthToken } from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { formBodyParser, type HttpContext, runOperation } from '../http/index.js';
import { publicCors } from '../well-known/index.js';
import { sendOAuthError } from './oauth-errors.js';

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

export type GrantHandler = (req: Request, body: Record<string, unknown>) => Promise<unknown>;

export function oauthTokenRoutes(ctx: HttpContext, extraGrants: Record<string, GrantHandler> = {}): Router {
  const r = Router();
  const form = formBodyParser({ extended: false, limit: '16kb' });

  const grants: Record<string, GrantHandler> = {
    authorization_code: async (_req, b) =>
      (
        await runOperation(
          ctx,
          exchangeOAuthCode,
          {
            clientId: need(b, 'client_id'),
            code: need(b, 'code'),
            redirectUri: need(b, 'redirect_uri'),
            codeVerifier: str(b.code_verifier),
            resource: str(b.resource),
          },
          'anonymous',
        )
      ).result,
    refresh_token: async (_req, b) =>
      (
        await runOperation(
          ctx,
          refreshOAuthToken,
          {
            clientId: need(b, 'client_id'),
            refreshToken: need(b, 'refresh_token'),
            scopes: str(b.scope)?.split(' ').filter(Boolean),
            resource: str(b.resource),
          },
          'anonymous',
        )
      ).result,
    ...extraGrants,
  };

  const paths = ['/api/mcp/oauth/token', '/api/mcp/device/token'];
  r.options(paths, publicCors);
  r.post(paths, publicCors, form, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store').setHeader('Pragma', 'no-cache');
    try {
      if (!req.is('application/x-www-form-urlencoded'))
        throw oauthError('invalid_request', 'send application/x-www-form-urlencoded');
      const body = (req.body ?? {}) as Record<string, unknown>;
      refuseClientSecrets(req, body);
      const grantType = str(body.grant_type);
      if (!grantType) throw oauthError('invalid_request', 'grant_type is required');
      const handler = grants[grantType];
      if (!handler) throw oauthError('unsupported_grant_type', `grant type ${grantType} is not supported`);
      res.json(await handler(req, body));
    } catch (e) {
      sendOAuthError(res, e, 'invalid_request');
    }
  });
  return r;
}

/**
 * Client authentication at the token, revocation and device endpoints. Every client here is public
 * (`token_endpoint_auth_method: none`): it names itself with `client_id` and proves nothing else, so a
 * secret in any form — an Authorization header or `client_secret` — cannot be right and is refused.
 */
export function refuseClientSecrets(req: Request, body: Record<string, unknown>) {
  if (req.headers.authorization !== undefined || body.client_secret !== undefined)
    throw oauthError('invalid_client', 'clients here are public and have no secret; send client_id only');
}

export function need(b: Record<string, unknown>, name: string): string {
  const v = str(b[name]);
  if (!v) throw oauthError('invalid_request', `${name} is required`);
  return v;
}
