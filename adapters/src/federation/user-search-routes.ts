// GET /api/federation/users/search?q= (docs/federation.md#user-search): peer-signed only, a capped page
// of public profiles, at most USER_SEARCH_PER_MINUTE searches per peer per minute (in this process).
import { DomainError } from '@tributary/domain';
import { parseUserSearch, searchUsers } from '@tributary/services';
import { Router } from 'express';
import { createRateLimiter, type HttpContext } from '../http/index.js';
import { peerAuthentication } from './peer-authentication.js';

export const USER_SEARCH_PER_MINUTE = 60;

export function userSearchRoutes(ctx: HttpContext): Router {
  const r = Router();
  const signed = peerAuthentication({ services: ctx.services, baseUrl: ctx.baseUrl, maxBodyBytes: 0 });
  const perPeer = createRateLimiter({ count: USER_SEARCH_PER_MINUTE, perSeconds: 60 });
  r.get('/users/search', signed, async (req, res) => {
    const principal = req.principal ?? { kind: 'anonymous' as const };
    const query = parseUserSearch(req.query);
    if (principal.kind === 'peer') {
      const wait = perPeer.take(principal.peerId);
      if (wait > 0)
        throw new DomainError('users_search.rate_limited', 'rate_limited', 'too many searches; wait', {
          retryAfter: wait,
        });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(await searchUsers(ctx.services, principal, query));
  });
  return r;
}
