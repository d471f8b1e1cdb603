// Custom domains on REST (docs/builder.md#domains): session-only aliases of the catalogue
// operations under /api/builder/domain, and Caddy's on-demand TLS `ask` endpoint.
import { bindDomain, checkDomain, listDomains, unbindDomain, type Operation } from '@tributary/services';
import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { publicDocument, runOperation, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

/** A DELETE carries its input as a JSON body or as query parameters. */
const bodyOrQuery = (req: Request): unknown =>
  req.body && typeof req.body === 'object' && Object.keys(req.body as object).length > 0
    ? req.body
    : req.query;

/** `{ result }`; with `created`, 201 when the command wrote events and 200 when it changed nothing. */
function answer<I, O>(
  ctx: HttpContext,
  op: Operation<I, O>,
  input: (req: Request) => unknown,
  o: { created?: boolean } = {},
): RequestHandler {
  return async (req, res) => {
    const { result, commit } = await runOperation(ctx, op, input(req), req);
    res.status(o.created && commit && commit.events.length > 0 ? 201 : 200).json({ result });
  };
}

export function domainRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  const body = (req: Request): unknown => req.body ?? {};
  r.get(
    '/domain',
    answer(ctx, listDomains, (req) => req.query),
  );
  r.post('/domain', ...o.browserWrites, answer(ctx, bindDomain, body, { created: true }));
  r.delete('/domain', ...o.browserWrites, answer(ctx, unbindDomain, bodyOrQuery));
  r.post('/domain/check', ...o.browserWrites, answer(ctx, checkDomain, body));
  return r;
}

export const tlsAskQuery = z.object({ domain: z.string().min(1).max(300) });

export interface TlsAskOptions {
  /** Free addresses are `<label>.<sitesDomain>`. */
  sitesDomain: string;
}

/**
 * Caddy's on-demand TLS asks `GET /api/builder/tls-ask?domain=<name>` before it gets a certificate for
 * a name it was sent (https://caddyserver.com/docs/automatic-https#on-demand-tls): 200 only for a
 * verified custom domain or a claimed address, 404 for anything else, so nobody makes the instance
 * ask a certificate authority for names it does not serve. Public and rate-limited per address.
 */
export function tlsAskRoutes(ctx: HttpContext, o: TlsAskOptions): Router {
  const r = Router();
  const limited = publicDocument(ctx, { limit: 'tlsAsk' });
  const sitesSuffix = `.${o.sitesDomain.toLowerCase()}`;
  r.options('/tls-ask', limited);
  r.get('/tls-ask', limited, async (req, res) => {
    const q = tlsAskQuery.safeParse(req.query);
    const name = q.success ? q.data.domain.trim().toLowerCase().replace(/\.$/, '') : '';
    let ok = false;
    if (name.endsWith(sitesSuffix)) {
      const label = name.slice(0, -sitesSuffix.length);
      // One of our own sites holds it now (a global instance's registry entries for other instances'
      // labels are served there, not here).
      ok =
        !label.includes('.') &&
        label !== '' &&
        (await ctx.services.builder.read.addresses([label]))[0]?.state === 'claimed';
    } else if (name !== '') {
      const read = ctx.services.builder.read;
      ok = (await read.domainBinding(name))?.state === 'verified';
      // `www.` of a verified domain is served too (a redirect to it), so it needs its certificate.
      if (!ok && name.startsWith('www.'))
        ok = (await read.domainBinding(name.slice(4)))?.state === 'verified';
    }
    res
      .status(ok ? 200 : 404)
      .type('text/plain')
      .send(ok ? 'ok\n' : 'not served here\n');
  });
  return r;
}
