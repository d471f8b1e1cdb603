// The consent step of the authorization-code flow. GET /mcp/oauth/authorize shows the sign-in form when
// there is no session, else the client, its redirect host, the scopes in plain words and a persona
// choice. The form posts to POST /api/mcp/oauth/authorize (same origin + a CSRF token derived from the
// session secret), which redirects back with `code`, `state` and `iss` (RFC 9207) or an error.
// An unknown client or unregistered redirect URI is shown on the page, never redirected to.
import { isDomainError } from '@tributary/domain';
import {
  authorizeOAuthClient,
  requestedScopes,
  isClientIdUrl,
  redirectMatches,
  signIn,
  signOut,
  type OAuthClientView,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { randomBytes } from 'node:crypto';
import {
  sameOrigin,
  principalOf,
  type HttpContext,
  clearSessionCookie,
  setSessionCookie,
  runOperation,
  formBodyParser,
  STATUS_OF_KIND,
} from '../http/index.js';
import {
  describeScope,
  esc,
  hidden,
  Html,
  sendPage,
  csrfFor,
  personaOptions,
  problemNotice,
  safeEqual,
} from '../web/index.js';

const LOGIN_CSRF_COOKIE = 'tributary_login_csrf';
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function cookieValue(req: Request, name: string): string | undefined {
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(req.headers.cookie ?? '');
  return m?.[1];
}

interface AuthorizeParams {
  client: OAuthClientView;
  redirectUri: string;
  state?: string | undefined;
}

/**
 * Who vouches for the client's name. A dynamically registered client named itself and nobody checked
 * it, so the page says so before anything else; a Client ID Metadata Document is at least published
 * by the host its URL names.
 */
export function clientIdentity(client: OAuthClientView): string {
  if (isClientIdUrl(client.clientId))
    return `<p class="muted">It describes itself at ${esc(client.clientId)}.</p>`;
  return `<p class="unverified" role="note" data-unverified-client><strong>Unverified app.</strong> This
app registered itself with this instance and chose its own name, &ldquo;${esc(client.clientName)}&rdquo;;
nobody has checked who made it. Continue only if you started this connection yourself and trust the app.</p>`;
}

/**
 * The sign-in form for a person who reached a page without a session; `error` is a sentence, or a
 * refusal's notice (its words and code, problemNotice).
 */
export function signInForm(res: Response, returnTo: string, error?: string | Html, status?: number) {
  const csrf = randomBytes(24).toString('base64url');
  res.cookie(LOGIN_CSRF_COOKIE, csrf, { httpOnly: true, sameSite: 'strict', path: '/mcp/' });
  sendPage(
    res,
    status ?? (error ? 401 : 200),
    'Sign in',
    `${error instanceof Html ? error.text : error ? `<p role="alert">${esc(error)}</p>` : '<p>Sign in to continue.</p>'}
<form method="post" action="/mcp/oauth/signin">
${hidden({ csrf, return_to: returnTo })}
<label>Email or handle<input name="identifier" autocomplete="username" required></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function oauthConsentRoutes(ctx: HttpContext): Router {
  const r = Router();
  const form = formBodyParser({ extended: false, limit: '16kb' });
  const iss = ctx.baseUrl;

  const redirectBack = (res: Response, p: AuthorizeParams, params: Record<string, string>) => {
    const u = new URL(p.redirectUri);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    if (p.state !== undefined) u.searchParams.set('state', p.state);
    u.searchParams.set('iss', iss);
    res.setHeader('Cache-Control', 'no-store').redirect(303, u.toString());
  };
  /**
   * What went wrong in words; in small print the app's own fault in the developer's terms (`why`) and
   * the OAuth error code, so a developer (and a test) can tell the refusals apart.
   */
  const errorPage = (res: Response, status: number, message: string, error?: string, why?: string) =>
    sendPage(
      res,
      status,
      'Cannot continue',
      `<div class="notice notice-error" role="alert"><p><strong>${esc(message)}</strong></p>${why ? `<p class="small muted">Why: ${esc(why)}</p>` : ''}${error ? `<p class="small muted">Error code: <code data-oauth-error>${esc(error)}</code></p>` : ''}</div>`,
    );

  /** Client and redirect URI first: until both check out, nothing may be redirected anywhere. */
  async function clientAndRedirect(
    q: Record<string, unknown>,
  ): Promise<AuthorizeParams | { message: string; error: string; why?: string }> {
    const clientId = str(q.client_id);
    let client: OAuthClientView | null = null;
    try {
      client = clientId ? await ctx.services.oauth.clients.find(clientId) : null;
    } catch (e) {
      // A Client ID Metadata Document that cannot be used: say why, never redirect.
      if (isDomainError(e) && e.code === 'oauth.invalid_client')
        return {
          message:
            'This app cannot be identified, so it cannot be connected. The people who made it have to fix how it describes itself.',
          error: 'invalid_client',
          why: e.message,
        };
      throw e;
    }
    if (!client)
      return {
        message: 'This app is not registered here, so it cannot be connected. Start again from the app.',
        error: 'invalid_client',
      };
    const redirectUri =
      str(q.redirect_uri) ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri || !redirectMatches(client.redirectUris, redirectUri))
      return {
        message:
          'The app asked to be sent back to an address it did not register, so it was not connected. Start again from the app.',
        error: 'invalid_request',
      };
    return { client, redirectUri, state: str(q.state) };
  }

  r.get('/mcp/oauth/authorize', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const p = await clientAndRedirect(q);
    if ('error' in p) return errorPage(res, 400, p.message, p.error, p.why);
    if (str(q.response_type) !== 'code')
      return redirectBack(res, p, {
        error: 'unsupported_response_type',
        error_description: 'use response_type=code',
      });
    const challenge = str(q.code_challenge);
    if (!challenge || str(q.code_challenge_method) !== 'S256')
      return redirectBack(res, p, {
        error: 'invalid_request',
        error_description: 'PKCE with S256 is required',
      });
    // No scope asked for: the default the 401 challenge names, shown and posted like any other.
    let scopes: string[];
    try {
      scopes = requestedScopes(
        p.client,
        (str(q.scope) ?? '').split(' ').filter(Boolean),
        ctx.services.config.scopesSupported,
      );
    } catch (e) {
      if (!isDomainError(e) || e.code !== 'oauth.invalid_scope') throw e;
      return redirectBack(res, p, { error: 'invalid_scope', error_description: e.message });
    }
    const resource = str(q.resource);
    if (resource !== undefined && resource !== `${ctx.baseUrl}/api/mcp`)
      return redirectBack(res, p, { error: 'invalid_target', error_description: 'unknown resource' });

    const principal = await principalOf(ctx, req);
    if (principal.kind !== 'session') return signInForm(res, req.originalUrl);
    const options = await personaOptions(ctx, principal.agentId);
    const host = new URL(p.redirectUri).host;
    sendPage(
      res,
      200,
      `Allow ${p.client.clientName}?`,
      `${clientIdentity(p.client)}<p><strong>${esc(p.client.clientName)}</strong> wants to use this instance on your behalf.
It will be sent back to <strong>${esc(host)}</strong>.</p>
<p>It asks to:</p>
<ul>${scopes.map((s) => `<li>${esc(describeScope(s))} <span class="muted">(${esc(s)})</span></li>`).join('')}</ul>
<form method="post" action="/api/mcp/oauth/authorize">
${hidden({
  csrf: csrfFor(ctx, req),
  client_id: p.client.clientId,
  redirect_uri: p.redirectUri,
  state: p.state,
  code_challenge: challenge,
  code_challenge_method: 'S256',
  scope: scopes.join(' '),
  resource,
})}
<label>Act as<select name="persona">${options}</select></label>
<div class="row"><button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve">Allow</button></div>
</form>
<form method="post" action="/mcp/oauth/signout">${hidden({ csrf: csrfFor(ctx, req) })}<button type="submit">Sign out</button></form>`,
    );
  });

  r.post('/api/mcp/oauth/authorize', sameOrigin(ctx.baseUrl), form, async (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const principal = await principalOf(ctx, req);
    const csrf = csrfFor(ctx, req);
    if (principal.kind !== 'session' || !csrf || !safeEqual(str(b.csrf), csrf))
      return errorPage(
        res,
        403,
        'This form has expired, or it did not come from this site. Start again from the app.',
      );
    const p = await clientAndRedirect(b);
    if ('error' in p) return errorPage(res, 400, p.message, p.error, p.why);
    if (str(b.decision) !== 'approve')
      return redirectBack(res, p, { error: 'access_denied', error_description: 'the person declined' });
    try {
      const persona = str(b.persona);
      const { result } = await runOperation(
        ctx,
        authorizeOAuthClient,
        {
          clientId: p.client.clientId,
          redirectUri: p.redirectUri,
          codeChallenge: str(b.code_challenge) ?? '',
          codeChallengeMethod: str(b.code_challenge_method) ?? '',
          scopes: (str(b.scope) ?? '').split(' ').filter(Boolean),
          ...(str(b.resource) !== undefined && { resource: str(b.resource) }),
          ...(persona && persona !== principal.agentId && { targetAgentId: persona }),
        },
        principal,
      );
      redirectBack(res, p, { code: result.code });
    } catch (e) {
      if (!isDomainError(e)) throw e;
      const error = e.code.startsWith('oauth.')
        ? e.code.slice(6)
        : e.kind === 'not_found'
          ? 'access_denied'
          : 'invalid_request';
      redirectBack(res, p, { error, error_description: e.message });
    }
  });

  r.post('/mcp/oauth/signin', sameOrigin(ctx.baseUrl), form, async (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const rawReturn = str(b.return_to) ?? '/mcp/authorize';
    const returnTo = /^\/mcp\/[A-Za-z0-9/_?=&%.~+-]*$/.test(rawReturn) ? rawReturn : '/mcp/authorize';
    const expected = cookieValue(req, LOGIN_CSRF_COOKIE);
    if (!expected || !safeEqual(str(b.csrf), expected))
      return signInForm(res, returnTo, 'The form expired. Please try again.');
    try {
      const { result } = await runOperation(
        ctx,
        signIn,
        { identifier: str(b.identifier) ?? '', password: str(b.password) ?? '' },
        'anonymous',
      );
      setSessionCookie(res, ctx.cookie, result.session.token, result.session.expiresAt);
      res.redirect(303, returnTo);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // In words with the code in small print, as on /signin (error-words.ts).
      const retryAfter = Number(e.details?.retryAfter);
      if (e.code === 'auth.throttled' && retryAfter > 0) res.setHeader('Retry-After', String(retryAfter));
      signInForm(
        res,
        returnTo,
        problemNotice(e, ''),
        e.code === 'auth.throttled' ? 429 : (STATUS_OF_KIND[e.kind] ?? 400),
      );
    }
  });

  r.post('/mcp/oauth/signout', sameOrigin(ctx.baseUrl), form, async (req, res) => {
    const principal = await principalOf(ctx, req);
    const csrf = csrfFor(ctx, req);
    if (
      principal.kind === 'session' &&
      csrf &&
      safeEqual(str((req.body as Record<string, unknown>)?.csrf), csrf)
    ) {
      await runOperation(ctx, signOut, {}, principal);
      clearSessionCookie(res, ctx.cookie);
    }
    res.redirect(303, '/mcp/authorize');
  });
  return r;
}
