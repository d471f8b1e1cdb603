// Connected apps: a signed-in person sees every scoped token and OAuth grant (client, scopes, persona,
// last used) and revokes any one of them. Also RFC 7009 revocation by value at the revocation endpoint
// (form-encoded `token=`), beside the JSON `{ jti }` form that token-routes serves for sessions.
import { isDomainError } from '@tributary/domain';
import { revokeOAuthGrant, revokeOAuthTokenByValue, revokeToken, tokenStatus } from '@tributary/services';
import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  formBodyParser,
  sameOrigin,
  principalOf,
  type HttpContext,
  runOperation,
  STATUS_OF_KIND,
} from '../http/index.js';
import { publicCors } from '../well-known/index.js';
import {
  badge,
  card,
  csrfFor,
  emptyState,
  esc,
  formSession,
  html,
  pageViewer,
  postButton,
  problemNotice,
  raw,
  sendHtml,
  sendPage,
  tokenStatusWords,
  when,
} from '../web/index.js';
import { signInForm } from './consent-routes.js';
import { sendOAuthError } from './oauth-errors.js';
import { need, refuseClientSecrets } from './token-routes.js';

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

export function connectedAppsRoutes(ctx: HttpContext): Router {
  const r = Router();
  const form = formBodyParser({ extended: false, limit: '16kb' });

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
      ctx.services.oauth.read.oauthGrantsOf(principal.accountId),
      ctx.services.tokens.read.tokensOf(principal.accountId),
      // Deleted personas too: a grant or token may still name one.
      ctx.services.agents.read.personasOf(principal.agentId, { includeDeleted: true }),
    ]);
    const nameOf = (agentId: string | null) => {
      if (!agentId) return 'you';
      const persona = personas.find((p) => p.agentId === agentId);
      return `${esc(persona?.name ?? agentId)}${persona?.deletedAt ? ' (deleted)' : ''}`;
    };
    const csrf = csrfFor(ctx, req)!;
    const revoke = (label: string, fields: Record<string, string>) =>
      postButton({
        action: '/mcp/apps/revoke',
        csrf,
        fields,
        kind: 'danger',
        label: html`Revoke<span class="visually-hidden"> ${label}</span>`,
        confirm: `Revoke “${label}”? It is refused from now on.`,
      });
    const oauthClients = new Set(grants.map((g) => g.clientId));
    const now = ctx.services.clock.now();
    const direct = tokens
      .filter((t) => !t.client || !oauthClients.has(t.client))
      .map((t) => ({ ...t, status: tokenStatusWords(tokenStatus(t, now)) }));
    const scopesOf = (scopes: string[]) => (scopes.length ? scopes.join(' ') : 'no scopes');
    sendHtml(res, 200, {
      title: 'Connected apps',
      current: '/access',
      viewer: await pageViewer(ctx, req),
      lede: 'Apps and agents that can act for you here. Revoking one refuses it at once.',
      body: html`${card(
          'Apps (OAuth)',
          grants.length
            ? html`<ul class="plain">
                ${grants.map(
                  (g) =>
                    html`<li>
                      <strong>${g.clientName}</strong> as ${raw(nameOf(g.personaId))}<br />
                      <span class="small muted"
                        >${scopesOf(g.scopes)} · connected ${when(g.createdAt)} · last used
                        ${when(g.lastUsedAt)}</span
                      >
                      <div>
                        ${g.revokedAt ? html`${badge('revoked', 'danger')} ${when(g.revokedAt)}` : revoke(g.clientName, { family: g.familyId })}
                      </div>
                    </li>`,
                )}
              </ul>`
            : emptyState('No apps connected.'),
          { id: 'oauth-apps' },
        )}
        ${card(
          'Tokens',
          direct.length
            ? html`<ul class="plain">
                ${direct.map(
                  (t) =>
                    html`<li>
                      <strong>${t.label}</strong>${t.client ? ` (${t.client})` : ''} as
                      ${raw(nameOf(t.personaId))}<br />
                      <span class="small muted"
                        >${scopesOf(t.scopes)} · ${t.status} · last used ${when(t.lastUsedAt)}</span
                      >
                      ${t.status === 'active' ? html`<div>${revoke(t.label, { jti: t.jti })}</div>` : ''}
                    </li>`,
                )}
              </ul>`
            : emptyState('No tokens.'),
          { id: 'tokens' },
        )}
        <p><a href="/access">Issue a token for an agent</a></p>`,
    });
  });

  r.post('/mcp/apps/revoke', sameOrigin(ctx.baseUrl), form, async (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const principal = await formSession(ctx, req, res);
    if (!principal) return;
    try {
      const family = str(b.family);
      if (family) await runOperation(ctx, revokeOAuthGrant, { familyId: family }, principal, req);
      else await runOperation(ctx, revokeToken, { jti: str(b.jti) ?? '' }, principal, req);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // In words, the code in small print (error-words.ts).
      return sendPage(
        res,
        STATUS_OF_KIND[e.kind] ?? 400,
        'Cannot continue',
        `${problemNotice(e, '').text}<p><a href="/mcp/apps">Back to your connected apps</a></p>`,
      );
    }
    res.redirect(303, '/mcp/apps');
  });
  return r;
}
