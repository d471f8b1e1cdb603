import { conflict, labelCandidates, requireValidLabel } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput } from './schemas.js';
import {
  addressLabelInput,
  addressOutput,
  claimAtGlobal,
  claimStreams,
  decideClaimIn,
  giveBackAtGlobal,
  globalRegistryOf,
  instanceReservedLabelsOf,
  isRefusalOfLabel,
  recordHostOnce,
  siteAddressOutput,
  unavailableTo,
  withAddressConflicts,
} from './site-address-support.js';

/** How many labels a suggestion tries (`my-site`, `my-site-2` … `my-site-20`) before giving up. */
const SUGGESTIONS = 20;

export const claimAddress = defineOperation({
  name: 'svc.builder.claim_address',
  title: 'Claim a site address',
  description:
    "Give a site (default: the owner's default site) a free address, served at <label>.<SITES_DOMAIN> and /sites/<label>/. " +
    'Without `label`, one is suggested from the site title (my-site, my-site-2, …). A label is a DNS label: lower-case a-z, 0-9 ' +
    'and inner hyphens, 3–63 characters, no xn--, not a reserved word or one of the instance’s own names. One address per ' +
    'site (release it first to change it); a released label is held back for its previous owner for ADDRESS_HOLD_DAYS. ' +
    'On an instance peered with the global instance the label is claimed there first.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    label: addressLabelInput.optional(),
  }),
  output: siteAddressOutput,
  async run(ctx, input) {
    // A bad label is refused before anything, the default site's creation included, is written.
    const reserved = await instanceReservedLabelsOf(ctx);
    if (input.label !== undefined) requireValidLabel(input.label, reserved);
    const site = await resolveSite(ctx, input.siteId);
    const read = ctx.services.builder.read;

    const current = await read.addressOfSite(site.siteId);
    if (current) {
      // Claiming what the site holds (or asking for any address when it has one) changes nothing.
      if (input.label === undefined || input.label === current.label) return addressOutput(ctx, current);
      throw conflict('builder.site_has_address', 'this site has an address; release it first', {
        label: current.label,
      });
    }

    const owner = ctx.actor.agentId;
    let candidates: string[];
    if (input.label !== undefined) candidates = [input.label];
    else {
      const all = labelCandidates(site.title, SUGGESTIONS, reserved);
      const known = new Map((await read.addresses(all)).map((a) => [a.label, a]));
      candidates = all.filter((l) => !unavailableTo(known.get(l), owner, ctx.now));
      if (candidates.length === 0)
        throw conflict('builder.label_taken', 'every address suggested from the title is taken; give one', {
          label: all[0] ?? null,
        });
    }

    const global = await globalRegistryOf(ctx);
    if (global) await recordHostOnce(ctx, global);
    let label: string | undefined;
    for (const candidate of candidates) {
      try {
        if (global) await claimAtGlobal(global, { label: candidate, siteId: site.siteId });
        label = candidate;
        break;
      } catch (e) {
        // A suggestion the global instance refuses gives way to the next one; a label asked for does not.
        if (input.label === undefined && isRefusalOfLabel(e) && candidate !== candidates.at(-1)) continue;
        throw e;
      }
    }
    if (label === undefined) throw new Error('no candidate label was tried');

    const claim = { label, siteId: site.siteId };
    try {
      await withAddressConflicts(label, () =>
        ctx.commit(claimStreams(claim), (states) => decideClaimIn(ctx, claim, states)),
      );
    } catch (e) {
      if (global) await giveBackAtGlobal(ctx, global, claim);
      throw e;
    }
    const claimed = await read.addressOfSite(site.siteId);
    if (!claimed) throw new Error('address missing from its inline projection after commit');
    return addressOutput(ctx, claimed);
  },
});
