// Claiming the first free label of a list for a site (docs/builder.md#addresses): on an instance peered
// with the global instance each is claimed there first, and a suggestion it refuses gives way to the
// next; then the claim is committed here (or given back there if that fails). Shared by claim_address
// and by the first publish of a site without an address, which claims one derived from the title.
import { conflict, labelCandidates, siteStream, type NewEvent, type SiteState } from '@tributary/domain';
import type { BuilderOperationContext } from './builder-operation.js';
import type { SiteView } from './ports/builder-read-models.js';
import type { SiteAddressView } from './ports/site-addresses.js';
import {
  claimAtGlobal,
  claimStreams,
  decideClaimIn,
  giveBackAtGlobal,
  globalRegistryOf,
  isRefusalOfLabel,
  recordHostOnce,
  unavailableTo,
  withAddressConflicts,
} from './site-address-support.js';

/** How many labels a suggestion tries (`my-site`, `my-site-2` … `my-site-20`) before giving up. */
const SUGGESTIONS = 20;

/**
 * The labels suggested from a site's title (`Ada's Bakery` → `adas-bakery`, `adas-bakery-2`, …) that
 * are free for the acting owner here; none free is `builder.label_taken`.
 */
export async function freeLabelsFromTitle(
  ctx: BuilderOperationContext,
  site: SiteView,
  reserved: ReadonlySet<string>,
): Promise<string[]> {
  const all = labelCandidates(site.title, SUGGESTIONS, reserved);
  const known = new Map((await ctx.services.builder.read.addresses(all)).map((a) => [a.label, a]));
  const free = all.filter((l) => !unavailableTo(known.get(l), ctx.actor.agentId, ctx.now));
  if (free.length === 0)
    throw conflict('builder.label_taken', 'every address suggested from the title is taken; give one', {
      label: all[0] ?? null,
    });
  return free;
}

/**
 * Claims the first of `candidates` that can be had, committing the claim together with whatever else
 * `alsoOnSite` decides on the site's own stream (a publish), in one append: an operation commits once.
 * `suggested`: they are suggestions, so one the global instance refuses gives way to the next; a label
 * asked for is claimed or refused as it is.
 */
export async function claimFirstFree<T extends { events: NewEvent[] }>(
  ctx: BuilderOperationContext,
  site: SiteView,
  candidates: readonly string[],
  suggested: boolean,
  alsoOnSite?: (state: SiteState) => T,
): Promise<{ address: SiteAddressView; decision: T | undefined }> {
  const global = await globalRegistryOf(ctx);
  if (global) await recordHostOnce(ctx, global);
  let label: string | undefined;
  for (const candidate of candidates) {
    try {
      if (global) await claimAtGlobal(global, { label: candidate, siteId: site.siteId });
      label = candidate;
      break;
    } catch (e) {
      if (suggested && isRefusalOfLabel(e) && candidate !== candidates.at(-1)) continue;
      throw e;
    }
  }
  if (label === undefined) throw new Error('no candidate label was tried');

  const claim = { label, siteId: site.siteId };
  const own = siteStream(site.siteId);
  let decision: T | undefined;
  try {
    await withAddressConflicts(label, () =>
      ctx.commit(alsoOnSite ? [...claimStreams(claim), own] : claimStreams(claim), (states) => {
        const claimed = decideClaimIn(ctx, claim, states);
        decision = alsoOnSite?.(states.get(own) as SiteState);
        return [...claimed, ...(decision?.events ?? [])];
      }),
    );
  } catch (e) {
    if (global) await giveBackAtGlobal(ctx, global, claim);
    throw e;
  }
  const claimed = await ctx.services.builder.read.addressOfSite(site.siteId);
  if (!claimed) throw new Error('address missing from its inline projection after commit');
  return { address: claimed, decision };
}
