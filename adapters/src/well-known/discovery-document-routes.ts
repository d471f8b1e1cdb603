// Discovery documents (RFC 8615): Matrix client and server discovery, and the instance's universal
// manifest. Public, readable from any origin (no credentials are involved).
import { composedFor, federationSurfaceComposed, issueUniversalManifest } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { sendProblem, type HttpContext, CACHE_DOCUMENT, publicDocument } from '../http/index.js';

export function discoveryDocumentRoutes(ctx: HttpContext): Router {
  const r = Router();
  const { services } = ctx;
  // The universal manifest is signed per request and valid for 30 days: five minutes in a cache is fine.
  const cors = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  // With no homeserver configured both answer 404: Matrix clients then IGNORE the document and servers
  // fall back to SRV records and port 8448, which is the truth (nothing is delegated from here).
  const notConfigured = (res: Parameters<RequestHandler>[1], which: string) =>
    sendProblem(res, {
      status: 404,
      code: 'discovery.matrix_not_configured',
      title: `No Matrix ${which} is delegated from this instance`,
      errcode: 'M_NOT_FOUND',
    });
  r.options(['/.well-known/matrix/client', '/.well-known/matrix/server'], cors);
  r.get('/.well-known/matrix/client', cors, (_req, res) => {
    const homeserverUrl = composedFor(services, federationSurfaceComposed).federationSurface.matrix
      ?.homeserverUrl;
    if (!homeserverUrl) return notConfigured(res, 'homeserver');
    res.json({ 'm.homeserver': { base_url: homeserverUrl } });
  });
  r.get('/.well-known/matrix/server', cors, (_req, res) => {
    const server = composedFor(services, federationSurfaceComposed).federationSurface.matrix?.server;
    if (!server) return notConfigured(res, 'server');
    res.json({ 'm.server': server });
  });
  r.options('/.well-known/universal-manifest.json', cors);
  r.get('/.well-known/universal-manifest.json', cors, async (_req, res) => {
    res.json(await issueUniversalManifest(composedFor(services, federationSurfaceComposed)));
  });
  return r;
}
