import {
  addressLabelStream,
  addressSiteStream,
  decideReleaseAddress,
  isDomainError,
  notFound,
  type AddressLabelState,
  type AddressSiteState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput } from './schemas.js';
import { addressPortsOf, globalRegistryOf, registryError } from './site-address-support.js';

export const releaseAddress = defineBuilderOperation({
  name: 'svc.builder.release_address',
  title: 'Release a site address',
  description:
    "Give up a site's address (default: the owner's default site). The site is no longer served there, and the label is " +
    'held back for ADDRESS_HOLD_DAYS, during which only the same owner can claim it again, so links others still use ' +
    'never lead to a stranger’s site. On an instance peered with the global instance the label is released there first.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, siteId: siteIdInput }),
  output: z.object({ label: z.string(), siteId: z.string(), releasedAt: z.string(), holdUntil: z.string() }),
  async run(ctx, input) {
    const site = await resolveSite(ctx, input.siteId);
    const current = await ctx.services.builder.read.addressOfSite(site.siteId);
    if (!current) throw notFound('builder.address_not_found', 'this site has no address');
    const { label } = current;
    const claim = { label, siteId: site.siteId };

    // The global registry first: if it cannot be told, nothing changes here either.
    const global = await globalRegistryOf(ctx);
    let releasedGlobally = false;
    if (global) {
      try {
        await global.client.release(global.baseUrl, claim);
        releasedGlobally = true;
      } catch (e) {
        // A label claimed before this instance peered with the global one is not registered there.
        if (!(isDomainError(e) && e.code === 'builder.address_not_found')) throw registryError(e, label);
      }
    }

    const labelStream = addressLabelStream(label);
    const siteStream = addressSiteStream(site.siteId);
    const { holdDays } = addressPortsOf(ctx.services);
    try {
      const { events } = await ctx.commit([labelStream, siteStream], (states) =>
        decideReleaseAddress(
          { label, siteId: site.siteId, ownerAgentId: ctx.actor.agentId, now: ctx.now, holdDays },
          {
            label: states.get(labelStream) as AddressLabelState,
            site: states.get(siteStream) as AddressSiteState,
          },
        ),
      );
      if (events.length === 0) throw new Error('a release decided no events');
    } catch (e) {
      // Released there but not here (a concurrent change): the label is ours again there, best effort.
      if (global && releasedGlobally)
        await global.client.claim(global.baseUrl, claim).catch((): void => undefined);
      throw e;
    }
    const released = (await ctx.services.builder.read.addresses([label]))[0];
    if (!released?.releasedAt || !released.holdUntil)
      throw new Error('release missing from its inline projection after commit');
    return { label, siteId: site.siteId, releasedAt: released.releasedAt, holdUntil: released.holdUntil };
  },
});
