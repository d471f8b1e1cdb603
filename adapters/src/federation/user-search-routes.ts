// GET /api/federation/users/search?q= (docs/federation.md#user-search): peer-signed only, a capped page
// of public profiles, at most USER_SEARCH_PER_MINUTE searches per peer per minute, counted across the
// instance's processes (services/src/federation/search-users.ts).
import { composedFor, federationSurfaceComposed, parseUserSearch, searchUsers } from '@tributary/services';
import { Router } from 'express';
import type { HttpContext } from '../http/index.js';
import { peerAuthentication } from './peer-authentication.js';

export function userSearchRoutes(ctx: HttpContext): Router {
  const r = Router();
  const signed = peerAuthentication({ services: ctx.services, baseUrl: ctx.baseUrl, maxBodyBytes: 0 });
  r.get('/users/search', signed, async (req, res) => {
    const principal = req.principal ?? { kind: 'anonymous' as const };
    const query = parseUserSearch(req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await searchUsers(composedFor(ctx.services, federationSurfaceComposed), principal, query));
  });
  return r;
}
