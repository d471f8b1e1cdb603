// Connected apps: a signed-in person sees every scoped token and OAuth grant (client, scopes, persona,
// last used) and revokes any one of them. Also RFC 7009 revocation by value at the revocation endpoint
// (form-encoded `token=`), beside the JSON `{ jti }` form that token-routes serves for sessions.
import { isDomainError } from '@tributary/domain';
import { revokeOAuthGrant, revokeOAuthTokenByValue, revokeToken, tokenStatus } from '@tributary/services';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { sameOrigin, principalOf, type HttpContext, runOperation } from '../http/index.js';
import { publicCors } from '../well-known/index.js';
import { csrfFor, esc, formSession, hidden, sendPage } from '../web/index.js';
import { signInForm } from './consent-routes.js';
import { sendOAuthError } from './oauth-errors.js';
import { need, refuseClientSecrets } from './token-routes.js';

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
const when = (iso: string | null) => (iso ? esc(iso.slice(0, 16).replace('T', ' ')) + ' UTC' : 'never');

export function connectedAppsRoutes(ctx: HttpContext): Router {
  const r = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  // RFC 7009 (form-encoded, from the client itself). JSON bodies fall through to the session route.
  // The client is identified as at the token endpoint, and may revoke only its own tokens.
  r.post('/api/mcp/token/revoke', publicCors, (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('application/x-www-form-urlencoded')) return next();
    form(req, res, async () => {
      try {
        const b = (req.body ?? {}) as Record<string, unknown>;
        refuseClientSecrets(req, b);
        const input = { token: need(b, 'token'), clientId: need(b, 'client_id') };
        await runOperation(ctx, revokeOAuthTokenByValue, input, 'anonymous');
        // RFC 7009 §2.2: the same answer whether or not the token was valid.
        res.status(200).setHeader('Cache-Control', 'no-store').end();
      } catch (e) {
        if (!isDomainError(e)) return next(e);
        sendOAuthError(res, e, 'invalid_request');
      }
    });
  });

  r.get('/mcp/apps', async (req, res) => {
    const principal = await principalOf(ctx, req);
    if (principal.kind !== 'session') return signInForm(res, '/mcp/apps');
    const [grants, tokens, personas] = await Promise.all([
      ctx.services.read.oauth.oauthGrantsOf(principal.accountId),
      ctx.services.read.tokens.tokensOf(principal.accountId),
      // Deleted personas too: a grant or token may still name one.
      ctx.services.read.agents.personasOf(principal.agentId, { includeDeleted: true }),
    ]);
    const nameOf = (agentId: string | null) => {
      if (!agentId) return 'you';
      const persona = personas.find((p) => p.agentId === agentId);
      return `${esc(persona?.name ?? agentId)}${persona?.deletedAt ? ' (deleted)' : ''}`;
    };
    const csrf = csrfFor(ctx, req);
    const button = (fields: Record<string, string>) =>
      `<form method="post" action="/mcp/apps/revoke">${hidden({ csrf, ...fields })}<button type="submit">Revoke</button></form>`;
    const oauthClients = new Set(grants.map((g) => g.clientId));
    const now = ctx.services.clock.now();
    const direct = tokens
      .filter((t) => !t.client || !oauthClients.has(t.client))
      .map((t) => ({ ...t, status: tokenStatus(t, now).replace('_', ' ') }));
    sendPage(
      res,
      200,
      'Connected apps',
      `<h2>Apps (OAuth)</h2>
${grants.length ? '' : '<p class="muted">No apps connected.</p>'}
<ul>${grants
        .map(
          (g) => `<li><strong>${esc(g.clientName)}</strong> as ${nameOf(g.personaId)}<br>
<span class="muted">${esc(g.scopes.join(' ') || 'no scopes')} · connected ${when(g.createdAt)} · last used ${when(g.lastUsedAt)}</span>
${g.revokedAt ? `<br>revoked ${when(g.revokedAt)}` : button({ family: g.familyId })}</li>`,
        )
        .join('')}</ul>
<h2>Tokens</h2>
${direct.length ? '' : '<p class="muted">No tokens.</p>'}
<ul>${direct
        .map(
          (
            t,
          ) => `<li><strong>${esc(t.label)}</strong>${t.client ? ` (${esc(t.client)})` : ''} as ${nameOf(t.personaId)}<br>
<span class="muted">${esc(t.scopes.join(' ') || 'no scopes')} · ${esc(t.status)} · last used ${when(t.lastUsedAt)}</span>
${t.status === 'active' ? button({ jti: t.jti }) : ''}</li>`,
        )
        .join('')}</ul>
<form method="post" action="/mcp/oauth/signout">${hidden({ csrf })}<button type="submit">Sign out</button></form>`,
    );
  });

  r.post('/mcp/apps/revoke', sameOrigin(ctx.baseUrl), form, async (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const principal = await formSession(ctx, req, res);
    if (!principal) return;
    try {
      const family = str(b.family);
      if (family) await runOperation(ctx, revokeOAuthGrant, { familyId: family }, principal);
      else await runOperation(ctx, revokeToken, { jti: str(b.jti) ?? '' }, principal);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return sendPage(res, 404, 'Cannot continue', `<p>${esc(e.message)}</p>`);
    }
    res.redirect(303, '/mcp/apps');
  });
  return r;
}
