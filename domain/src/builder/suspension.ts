// Suspension of a site by an operator (docs/builder.md#suspension): a reason the owner sees, and 451 at
// every address and domain of the site while it holds. Only an operator suspends or lifts it; the
// operations check that (controllerOnly), the deciders only what the site's state allows.
import { z } from 'zod';
import type { NewEvent } from '../shared/envelope.js';
import { notFound } from '../shared/errors.js';
import type { SiteState } from './site.js';
import { siteStream } from './site-streams.js';

export const SUSPENSION_REASON_MAX_CHARS = 500;
// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
/** Shown to the owner and on the 451 page: plain text, one line. */
export const suspensionReasonSchema = z
  .string()
  .trim()
  .min(1)
  .max(SUSPENSION_REASON_MAX_CHARS)
  .regex(NO_CONTROLS, 'no control characters');

function requireSite(site: SiteState): asserts site is SiteState & { siteId: string } {
  if (!site.exists || !site.siteId) throw notFound('builder.site_not_found', 'no such site');
}

/** Suspends the site, or changes the reason of a suspension; the same reason again is no event. */
export function decideSuspendSite(cmd: { reason: string }, site: SiteState): NewEvent[] {
  requireSite(site);
  if (site.suspendedReason === cmd.reason) return [];
  return [
    {
      stream: siteStream(site.siteId),
      type: 'site.suspended',
      data: { siteId: site.siteId, reason: cmd.reason },
    },
  ];
}

/** Lifts a suspension; a site that is not suspended stays as it is (no event). */
export function decideUnsuspendSite(site: SiteState): NewEvent[] {
  requireSite(site);
  if (site.suspendedReason === undefined) return [];
  return [{ stream: siteStream(site.siteId), type: 'site.unsuspended', data: { siteId: site.siteId } }];
}
