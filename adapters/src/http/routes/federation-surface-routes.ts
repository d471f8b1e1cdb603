// The rest of the federation surface (issue 5, part 6): peer mutations, public queries, the
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
} from '@tributary/services';
import { Router, type Request, type RequestHandler } from 'express';
import { peerAuthentication } from '../../federation/peer-authentication.js';
import type { HttpContext } from '../context.js';

const publicRead: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'content-type');
    res.setHeader('Access-Control-Max-Age', '600');
    return void res.status(204).end();
  }
  next();
};

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
    res.status(200).json(await applyPeerMutation(services, peerOf(req), text));
  });

  r.options(['/query', '/discover', '/manifest'], publicRead);
  r.get('/query', publicRead, async (req, res) => {
    const page = await runFederationQuery(services, parseFederationQuery(req.query));
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
    res.json(await probeEntityStatus(services, parseEntityStatusRequest(jsonBodyOf(req))));
  });

  r.get('/discover', publicRead, peerSignedOrAnonymous, async (req, res) => {
    const q = parseDiscoverQuery(req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await discoverIdentity(services, req.principal ?? { kind: 'anonymous' }, q));
  });

  r.get('/manifest', publicRead, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await issueInstanceManifest(services));
  });
  return r;
}
