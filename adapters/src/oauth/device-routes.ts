// The device flow (RFC 8628). POST /api/mcp/device/code starts it; GET /mcp/authorize is the page where a
// signed-in person enters or confirms the user code and sees the client and scopes; it posts to
// POST /api/mcp/device/approve (same origin + CSRF). Polling goes to the token endpoint (or its alias
// /api/mcp/device/token), where polling faster than the interval answers slow_down with the current
// interval: a run of too-fast polls adds 5 s once, each polite poll takes 5 s off (down to the advertised).
// Poll timing and wrong-code counters are throttles, not facts: not in the log, but in Postgres, so every
// process of an instance shares them and a restart does not reset them.
import { isDomainError } from '@tributary/domain';
import {
  decideDeviceCode,
  paceDevicePoll,
  pendingDeviceRequest,
  redeemDeviceCode,
  requestDeviceCode,
  type Services,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import {
  formBodyParser,
  sameOrigin,
  principalOf,
  type HttpContext,
  runOperation,
  STATUS_OF_KIND,
} from '../http/index.js';
import {
  describeScope,
  esc,
  hidden,
  sendPage,
  csrfFor,
  formSession,
  personaOptions,
  problemNotice,
} from '../web/index.js';
import { publicCors } from '../well-known/index.js';
import { clientIdentity, signInForm } from './consent-routes.js';
import { sendOAuthError } from './oauth-errors.js';
import { need, refuseClientSecrets, type GrantHandler } from './token-routes.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

interface DeviceFlowOptions {
  /** Seconds a client must wait between polls (RFC 8628 `interval`). */
  intervalSeconds: number;
}

/** Wrong user codes per account and per address, so a code cannot be guessed by trying many. */
function wrongCodeLimiter(services: Services) {
  const { wrongCodePerAccount: perAccount, wrongCodePerAddress: perAddress } = services.oauth.deviceFlow;
  const accountKey = (accountId: string) => `device-user-code:account:${accountId}`;
  const addressKey = (req: Request) => `device-user-code:address:${req.ip ?? ''}`;
  return {
    /** Seconds until this account and address may try again; 0 when they may now. */
    async blocked(req: Request, accountId: string) {
      const [a, b] = await Promise.all([
        perAccount.retryAfter(accountKey(accountId)),
        perAddress.retryAfter(addressKey(req)),
      ]);
      return Math.max(a, b);
    },
    async fail(req: Request, accountId: string) {
      await Promise.all([
        perAccount.recordFailure(accountKey(accountId)),
        perAddress.recordFailure(addressKey(req)),
      ]);
    },
  };
}

export function deviceGrant(ctx: HttpContext, o: DeviceFlowOptions): GrantHandler {
  return async (_req, b) => {
    const clientId = need(b, 'client_id');
    const deviceCode = need(b, 'device_code');
    await paceDevicePoll(ctx.services, deviceCode, o.intervalSeconds);
    return (await runOperation(ctx, redeemDeviceCode, { clientId, deviceCode }, 'anonymous')).result;
  };
}

export function oauthDeviceRoutes(ctx: HttpContext, o: DeviceFlowOptions): Router {
  const r = Router();
  const form = formBodyParser({ extended: false, limit: '16kb' });
  const base = ctx.baseUrl;
  const limiter = wrongCodeLimiter(ctx.services);

  r.options('/api/mcp/device/code', publicCors);
  r.post('/api/mcp/device/code', publicCors, form, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const b = (req.body ?? {}) as Record<string, unknown>;
      refuseClientSecrets(req, b);
      const { result } = await runOperation(
        ctx,
        requestDeviceCode,
        {
          clientId: need(b, 'client_id'),
          scopes: (str(b.scope) ?? '').split(' ').filter(Boolean),
          resource: str(b.resource),
        },
        'anonymous',
      );
      res.json({
        device_code: result.deviceCode,
        user_code: result.userCode,
        verification_uri: `${base}/mcp/authorize`,
        verification_uri_complete: `${base}/mcp/authorize?user_code=${result.userCode}`,
        expires_in: result.expiresIn,
        interval: o.intervalSeconds,
      });
    } catch (e) {
      sendOAuthError(res, e, 'invalid_request');
    }
  });

  const unusableClient = (res: Response, why: string) =>
    sendPage(
      res,
      400,
      'Cannot continue',
      `<div class="notice notice-error" role="alert"><p><strong>The app behind this code cannot be identified, so it cannot be connected. The people who made it have to fix how it describes itself.</strong></p><p class="small muted">Why: ${esc(why)}</p><p class="small muted">Error code: <code data-oauth-error>invalid_client</code></p></div>`,
    );

  const entryForm = (message?: string) => `${message ? `<p role="alert">${esc(message)}</p>` : ''}
<form method="get" action="/mcp/authorize">
<label>Code shown on your device<input name="user_code" autocomplete="one-time-code" autocapitalize="characters" placeholder="XXXX-XXXX" required></label>
<button type="submit">Continue</button>
</form>`;

  const tooManyAttempts = (res: Response, retryAfter: number) => {
    res.setHeader('Retry-After', String(retryAfter));
    sendPage(
      res,
      429,
      'Too many attempts',
      `<p>Too many wrong codes. Try again in ${retryAfter} seconds.</p>`,
    );
  };

  r.get('/mcp/authorize', async (req, res) => {
    const principal = await principalOf(ctx, req);
    if (principal.kind !== 'session') return signInForm(res, req.originalUrl);
    const typed = str(req.query.user_code);
    if (!typed) return sendPage(res, 200, 'Connect a device', entryForm());
    const wait = await limiter.blocked(req, principal.accountId);
    if (wait > 0) return tooManyAttempts(res, wait);
    const p = await pendingDeviceRequest(ctx.services, typed);
    if (!p) {
      await limiter.fail(req, principal.accountId);
      return sendPage(res, 404, 'Connect a device', entryForm('That code is not valid, or it has expired.'));
    }
    if ('unusable' in p) return unusableClient(res, p.unusable);
    const options = await personaOptions(ctx, principal.agentId);
    const scopes = p.request.scopes;
    sendPage(
      res,
      200,
      `Connect ${p.client.clientName}?`,
      `<p>Code <strong>${esc(p.userCode)}</strong>: check that your device shows the same code.</p>
${clientIdentity(p.client)}<p><strong>${esc(p.client.clientName)}</strong> asks to:</p>
<ul>${scopes.length ? scopes.map((s) => `<li>${esc(describeScope(s))} <span class="muted">(${esc(s)})</span></li>`).join('') : '<li>nothing beyond connecting (no tools)</li>'}</ul>
<form method="post" action="/api/mcp/device/approve">
${hidden({ csrf: csrfFor(ctx, req), user_code: p.userCode })}
<label>Act as<select name="persona">${options}</select></label>
<div class="row"><button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve">Approve</button></div>
</form>`,
    );
  });

  r.post('/api/mcp/device/approve', sameOrigin(base), form, async (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const principal = await formSession(ctx, req, res);
    if (!principal) return;
    const wait = await limiter.blocked(req, principal.accountId);
    if (wait > 0) return tooManyAttempts(res, wait);
    const p = await pendingDeviceRequest(ctx.services, str(b.user_code));
    if (!p) {
      await limiter.fail(req, principal.accountId);
      return sendPage(res, 404, 'Connect a device', entryForm('That code is not valid, or it has expired.'));
    }
    if ('unusable' in p) return unusableClient(res, p.unusable);
    const approve = str(b.decision) === 'approve';
    const persona = str(b.persona);
    try {
      await runOperation(
        ctx,
        decideDeviceCode,
        {
          deviceDigest: p.deviceDigest,
          approve,
          ...(approve && persona && persona !== principal.agentId && { targetAgentId: persona }),
        },
        principal,
      );
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // In words, the code in small print (error-words.ts).
      return sendPage(res, STATUS_OF_KIND[e.kind] ?? 400, 'Cannot continue', problemNotice(e, '').text);
    }
    sendPage(
      res,
      200,
      approve ? 'Device connected' : 'Request denied',
      approve ? '<p>You can return to your device.</p>' : '<p>The device was not connected.</p>',
    );
  });
  return r;
}
