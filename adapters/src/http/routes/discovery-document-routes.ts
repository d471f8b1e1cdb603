// Discovery documents (RFC 8615): Matrix client and server discovery, and the instance's universal
// manifest. Public, readable from any origin (no credentials are involved).
import { federationSurfaceOf, issueUniversalManifest } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { sendProblem } from '../problem.js';
import type { HttpContext } from '../context.js';

const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'X-Requested-With, Content-Type, Authorization');
    res.setHeader('Allow', 'GET, OPTIONS');
    res.setHeader('Access-Control-Max-Age', '600');
    return void res.status(204).end();
  }
  next();
};

export function discoveryDocumentRoutes(ctx: HttpContext): Router {
  const r = Router();
  const { services } = ctx;
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
    const homeserverUrl = federationSurfaceOf(services).matrix?.homeserverUrl;
    if (!homeserverUrl) return notConfigured(res, 'homeserver');
    res.json({ 'm.homeserver': { base_url: homeserverUrl } });
  });
  r.get('/.well-known/matrix/server', cors, (_req, res) => {
    const server = federationSurfaceOf(services).matrix?.server;
    if (!server) return notConfigured(res, 'server');
    res.json({ 'm.server': server });
  });
  r.options('/.well-known/universal-manifest.json', cors);
  r.get('/.well-known/universal-manifest.json', cors, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await issueUniversalManifest(services));
  });
  return r;
}
