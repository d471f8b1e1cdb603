// GET /api/federation/users/search?q= (docs/federation.md#user-search): for a peer app, the local persons
// whose handle starts with or whose name contains q, public profile fields only, paged by agent id. A
// person who opted out of discovery (svc.account.set_discoverable) never appears; nor do personas,
// placeholders, deleted agents or remote agents.
import { DomainError, invalid, unauthenticated } from '@tributary/domain';
import { z } from 'zod';
import type { Principal } from '../pipeline/principal.js';
import type { FederationWithSurfaceServices } from './federation-operation.js';
import type { UserSearchHit } from './ports/federation-surface.js';

export const USER_SEARCH_MAX_LIMIT = 50;
/** Searches one peer may make per minute, counted across the instance's processes. */
export const USER_SEARCH_PER_MINUTE = 60;
const USER_SEARCH_DEFAULT_LIMIT = 20;

export const userSearchQuery = z.strictObject({
  q: z.string().trim().min(1).max(100),
  limit: z.coerce.number().int().min(1).max(USER_SEARCH_MAX_LIMIT).optional(),
  cursor: z.string().uuid().optional(),
});

export function parseUserSearch(raw: unknown): z.infer<typeof userSearchQuery> {
  const parsed = userSearchQuery.safeParse(raw);
  if (!parsed.success)
    throw invalid(
      'users_search.bad_query',
      'q: 1–100 characters; limit: 1–50; cursor: from a previous page',
      {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      },
    );
  return parsed.data;
}

export async function searchUsers(
  services: FederationWithSurfaceServices,
  principal: Principal,
  query: z.infer<typeof userSearchQuery>,
): Promise<{ results: UserSearchHit[]; next: string | null }> {
  if (principal.kind !== 'peer')
    throw unauthenticated('federation.signature_required', 'only a signed peer request may search users');
  const surface = services.federationSurface;
  const wait = (await surface.userSearchRate?.take(principal.peerId)) ?? 0;
  if (wait > 0)
    throw new DomainError('users_search.rate_limited', 'rate_limited', 'too many searches; wait', {
      retryAfter: wait,
    });
  const limit = query.limit ?? USER_SEARCH_DEFAULT_LIMIT;
  // One more than asked says whether a next page exists.
  const hits = await surface.read.searchUsers({
    q: query.q.toLowerCase(),
    after: query.cursor,
    limit: limit + 1,
  });
  const results = hits.slice(0, limit);
  return { results, next: hits.length > limit ? results[results.length - 1]!.agentId : null };
}
