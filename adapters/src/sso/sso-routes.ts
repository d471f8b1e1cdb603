// Single sign-on's routes under /api/federation (docs/sso.md): issuing an assertion (the global
// instance), landing with one (GET, from a redirect) or presenting one (POST remote-auth, JSON body
// only), handing a session to another instance, a person's remote sessions, and the peer-only routes
// (remote-password/verify, signup, site-accounts) that answer RFC 9421-signed requests and nothing else.
import { invalid, safeNextPath } from '@tributary/domain';
import {
  acceptAssertion,
  delegatedSignUp,
  delegatedSiteAccount,
  issueAssertion,
  listRemoteSessions,
  sessionHandoff,
  verifyRemotePassword,
  type Operation,
  type Principal,
} from '@tributary/services';
import { createHash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  principalOf,
  principalOrRemoteViewerOf,
  rateLimited,
  requireJson,
  runOperation,
  jsonBodyParser,
  sendProblem,
  setRemoteViewerCookie,
  type HttpContext,
} from '../http/index.js';
import { peerAuthentication } from '../federation/index.js';

/** Bodies of the SSO routes are small JSON objects: an assertion is at most 4096 characters. */
export const SSO_MAX_BODY_BYTES = 8 * 1024;

const limitedBy = (limiter: HttpContext['limits']['ssoIssue']): RequestHandler =>
  rateLimited(limiter, (res, retryAfter) =>
    sendProblem(res, {
      status: 429,
      code: 'request.rate_limited',
      title: `too many requests from this address; retry after ${retryAfter} s`,
      retryAfter,
    }),
  );

/** Credentials travel in a JSON body only: a query string ends up in logs, histories and referrers. */
const noQueryCredentials: RequestHandler = (req, _res, next) => {
  if (Object.keys(req.query).length > 0)
    throw invalid('sso.credential_in_query', 'send the credential in a JSON body, not in the query string');
  next();
};

/**
 * A session cookie or a bearer token on a peer-only route is refused with its own code before anything
 * else, so a caller learns it used the wrong credential rather than a missing signature.
 */
const peerOnly: RequestHandler = (req, res, next) => {
  if (req.headers['signature-input'] === undefined && (req.headers.authorization || req.headers.cookie))
    return sendProblem(res, {
      status: 403,
      code: 'sso.peer_request_required',
      title: 'this route answers signed peer requests only',
    });
  next();
};

function peerOf(req: Request): Principal {
  return req.principal?.kind === 'peer' ? req.principal : { kind: 'anonymous' };
}

function peerJson(req: Request): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody));
  } catch {
    throw invalid('request.malformed_json', 'the request body is not UTF-8 JSON');
  }
}

export function ssoRoutes(ctx: HttpContext): Router {
  const r = Router();
  const { services } = ctx;
  const json = jsonBodyParser({
    limit: SSO_MAX_BODY_BYTES,
    type: ['application/json', 'application/*+json'],
  });
  const signed = peerAuthentication({ services, baseUrl: ctx.baseUrl, maxBodyBytes: SSO_MAX_BODY_BYTES });

  const landed = (res: Response, minted: { token: string; expiresAt: string }) =>
    setRemoteViewerCookie(res, ctx.cookie, minted.token, minted.expiresAt);

  // A delegating sovereign's sign-ins come signed, all from its one address: they are limited per peer and
  // per identifier, not by the address every one of its users shares (docs/sso.md#limits). Unsigned
  // callers are limited by their address.
  const issueRoute = async (req: Request, res: Response, body: unknown) => {
    const { result } = await runOperation(ctx, issueAssertion, body ?? {}, 'anonymous');
    res.json({ result });
  };
  r.post(
    '/sso/issue',
    (req, _res, next) => next(req.headers['signature-input'] === undefined ? 'route' : undefined),
    noQueryCredentials,
    requireJson,
    signed,
    (req, res, next) => {
      const body = peerJson(req);
      const identifier = (body as { identifier?: unknown } | null)?.identifier;
      const who = typeof identifier === 'string' ? identifier.trim().toLowerCase() : '';
      const peer = peerOf(req);
      const key = `peer:${peer.kind === 'peer' ? peer.peerId : ''}:${createHash('sha256').update(who).digest('hex')}`;
      const wait = ctx.limits.ssoIssue.take(key);
      if (wait === 0) return void issueRoute(req, res, body).catch(next);
      res.setHeader('Retry-After', String(wait));
      sendProblem(res, {
        status: 429,
        code: 'request.rate_limited',
        title: `too many sign-ins for this person from this peer; retry after ${wait} s`,
        retryAfter: wait,
      });
    },
  );
  r.post('/sso/issue', limitedBy(ctx.limits.ssoIssue), noQueryCredentials, requireJson, json, (req, res) =>
    issueRoute(req, res, req.body),
  );

  // The browser arrives here from a redirect, so the assertion is in the query (single use, short-lived,
  // bound to this origin); the credential it mints goes into the cookie only.
  r.get('/sso/land', limitedBy(ctx.limits.ssoLand), async (req, res) => {
    const { result } = await runOperation(
      ctx,
      acceptAssertion,
      { assertion: req.query.assertion },
      'anonymous',
    );
    landed(res, result);
    res.redirect(303, safeNextPath(req.query.next));
  });

  r.post(
    '/remote-auth',
    limitedBy(ctx.limits.ssoLand),
    noQueryCredentials,
    requireJson,
    json,
    async (req, res) => {
      const body = req.body as unknown;
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw invalid('input.invalid', 'the body is { assertion }');
      const { result } = await runOperation(ctx, acceptAssertion, body, 'anonymous');
      landed(res, result);
      res.json({
        result: {
          credentialId: result.credentialId,
          agentId: result.agentId,
          home: result.home,
          expiresAt: result.expiresAt,
        },
      });
    },
  );

  r.get('/sso/session-handoff', async (req, res) => {
    const input = {
      ...(req.query.to !== undefined && { to: typeof req.query.to === 'string' ? req.query.to : '' }),
      ...(typeof req.query.next === 'string' && { next: req.query.next }),
    };
    const { result } = await runOperation(ctx, sessionHandoff, input, await principalOf(ctx, req), req);
    res.redirect(303, result.location);
  });

  // A person's remote sessions: a session, or the remote viewer itself (its own visits here).
  r.get('/sso/sessions', async (req, res) => {
    const { result } = await runOperation(
      ctx,
      listRemoteSessions,
      {},
      await principalOrRemoteViewerOf(ctx, req),
    );
    res.json({ result });
  });

  const peerRoute = (path: string, run: (req: Request) => Promise<unknown>) =>
    r.post(path, peerOnly, limitedBy(ctx.limits.ssoPeer), noQueryCredentials, signed, async (req, res) => {
      res.json({ result: await run(req) });
    });
  const asPeer = async <I, O>(op: Operation<I, O>, req: Request) =>
    (await runOperation(ctx, op, peerJson(req), peerOf(req), req)).result;
  peerRoute('/remote-password/verify', (req) => asPeer(verifyRemotePassword, req));
  peerRoute('/signup', (req) => asPeer(delegatedSignUp, req));
  peerRoute('/site-accounts', (req) => asPeer(delegatedSiteAccount, req));
  return r;
}
