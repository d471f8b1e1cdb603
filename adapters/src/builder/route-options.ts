// What the builder's route files share: the body handling of writes, and the size of a draft's body.
import { DRAFT_LIMITS } from '@tributary/domain';
import type { RequestHandler } from 'express';

/**
 * The largest body PUT /api/builder/draft takes: a draft at its stored-size limit, with room for the
 * revision, the ids and whitespace. A bigger body is 413 request.too_large before it is parsed; one
 * whose draft is over the limit once parsed is 413 builder.draft_too_large.
 */
export const DRAFT_BODY_MAX_BYTES = DRAFT_LIMITS.bytes + 64 * 1024;

export interface BuilderRouteOptions {
  /** Same-origin and JSON checks plus the JSON body parser, as for every cookie-authenticated write. */
  browserWrites: RequestHandler[];
  /** The same checks with a body parser sized for a whole draft (DRAFT_BODY_MAX_BYTES). */
  draftWrites: RequestHandler[];
  /** The same-origin check alone, for a write whose body is not JSON (a multipart media upload). */
  originCheck: RequestHandler;
}
