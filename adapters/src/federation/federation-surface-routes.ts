// The rest of the federation surface: peer mutations, public queries, the
// reconciliation probe, identity discovery and the signed manifest. Status and node-status live with
// the sync engine.
import { invalid, MUTATION_MAX_BYTES, unauthenticated } from '@tributary/domain';
import {
  applyPeerMutation,
  discoverIdentity,
  issueInstanceManifest,
  parseDiscoverQuery,
  parseEntityStatusRequest,
  parseFederationQuery,
  probeEntityStatus,
  runFederationQuery,
  type Principal,
  composedFor,
  federationSurfaceComposed,
} from '@tributary/services';
import { Router, type Request, type RequestHandler } from 'express';
import { peerAuthentication } from './peer-authentication.js';
import { type HttpContext, CACHE_DOCUMENT, publicDocument } from '../http/index.js';

/** The peer principal a peer-signed route was reached with. */
function peerOf(req: Request): Extract<Principal, { kind: 'peer' }> {
  if (req.principal?.kind !== 'peer')
    throw unauthenticated('federation.signature_required', 'sign the request');
  return req.principal;
}

function jsonBodyOf(req: Request): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody);
  } catch {
    throw invalid('request.malformed_json', 'the request body is not UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('request.malformed_json', 'the request body is not valid JSON');
  }
}

export function federationSurfaceRoutes(ctx: HttpContext, o: { maxBodyBytes: number }): Router {
  const r = Router();
  const { services } = ctx;
  const signed = (maxBodyBytes: number) =>
    peerAuthentication({ services, baseUrl: ctx.baseUrl, maxBodyBytes });
  // Discover answers strangers too; a request that carries a signature must be a valid peer's.
  const discoverAuth = signed(0);
  const peerSignedOrAnonymous: RequestHandler = (req, res, next) => {
    if (req.headers['signature'] === undefined && req.headers['signature-input'] === undefined) {
      req.principal = { kind: 'anonymous' };
      return next();
    }
    return discoverAuth(req, res, next);
  };

  r.post('/mutations', signed(MUTATION_MAX_BYTES), async (req, res) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody);
    } catch {
      throw invalid('federation.bad_mutation', 'the envelope is not UTF-8');
    }
    res
      .status(200)
      .json(await applyPeerMutation(composedFor(services, federationSurfaceComposed), peerOf(req), text));
  });

  // Query and discover read live state: they keep the app's no-store. The manifest is signed per request
  // and valid for 30 days, so five minutes in a cache is fine.
  const publicRead = publicDocument(ctx, { limit: 'feed' });
  const manifestDoc = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  r.options(['/query', '/discover'], publicRead);
  r.options('/manifest', manifestDoc);
  r.get('/query', publicRead, async (req, res) => {
    const page = await runFederationQuery(
      composedFor(services, federationSurfaceComposed),
      parseFederationQuery(req.query),
    );
    const next = page.next === null ? 'null' : JSON.stringify(page.next);
    if (page.resource === 'agents') return void res.json(page);
    // Events go out as the exact texts we signed; only the frame is serialized here.
    res
      .type('application/json')
      .send(
        `{"resource":"events","items":[${page.items.map((i) => `{"sequence":${i.sequence},"event":${i.text}}`).join(',')}],"next":${next}}`,
      );
  });

  r.post('/entity-status', signed(o.maxBodyBytes), async (req, res) => {
    peerOf(req);
    res.json(
      await probeEntityStatus(
        composedFor(services, federationSurfaceComposed),
        parseEntityStatusRequest(jsonBodyOf(req)),
      ),
    );
  });

  r.get('/discover', publicRead, peerSignedOrAnonymous, async (req, res) => {
    const q = parseDiscoverQuery(req.query);
    res.json(
      await discoverIdentity(
        composedFor(services, federationSurfaceComposed),
        req.principal ?? { kind: 'anonymous' },
        q,
      ),
    );
  });

  r.get('/manifest', manifestDoc, async (_req, res) => {
    res.json(await issueInstanceManifest(composedFor(services, federationSurfaceComposed)));
  });
  return r;
}
