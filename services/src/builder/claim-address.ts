import {
  conflict,
  DomainError,
  isDomainError,
  labelCandidates,
  repairAddressInput,
  requireValidLabel,
} from '@tributary/domain';
import type { BuilderOperationContext } from './builder-operation.js';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput } from './schemas.js';
import { inputRepairsOutput } from './input-repairs.js';
import { claimFirstFree, freeLabelsFromTitle } from './claim-free-address.js';
import {
  addressLabelInput,
  addressPortsOf,
  addressOutput,
  instanceReservedLabelsOf,
  isRefusalOfLabel,
  siteAddressOutput,
  unavailableTo,
} from './site-address-support.js';

/** How many labels a suggestion tries (`my-site`, `my-site-2` … `my-site-20`) before giving up. */
const SUGGESTIONS = 20;
/** How many free labels a refusal of a wanted one offers. */
const OFFERED = 3;

/**
 * Free labels like `wanted` (`adas-bakery-2`, `adas-bakery-3`…; from `fallback` when `wanted` is no
 * label at all), for a refusal to offer: a person who finds their name taken gets one they can have.
 */
async function freeLabelsLike(
  ctx: BuilderOperationContext,
  wanted: string,
  fallback: string,
  reserved: ReadonlySet<string>,
): Promise<string[]> {
  const all = labelCandidates(wanted || fallback, SUGGESTIONS, reserved).filter((l) => l !== wanted);
  const known = new Map((await ctx.services.builder.read.addresses(all)).map((a) => [a.label, a]));
  return all.filter((l) => !unavailableTo(known.get(l), ctx.actor.agentId, ctx.now)).slice(0, OFFERED);
}

/** The same refusal, with free labels to offer and what was typed beside it. */
const withSuggestions = (e: DomainError, extra: Record<string, unknown>) =>
  new DomainError(e.code, e.kind, e.message, { ...e.details, ...extra });

export const claimAddress = defineBuilderOperation({
  name: 'svc.builder.claim_address',
  title: 'Claim a site address',
  description:
    "Give a site (default: the owner's default site) a free address, served at <label>.<SITES_DOMAIN> and /sites/<label>/. " +
    'Without `label`, one is suggested from the site title (my-site, my-site-2, …). A label is a DNS label: lower-case a-z, 0-9 ' +
    'and inner hyphens, 3–63 characters, no xn--, not a reserved word or one of the instance’s own names. A label typed ' +
    'carelessly is repaired first ("Ada\'s Bakery" is adas-bakery; a URL gives its label) and the answer says so (`typed`, ' +
    '`repairs`); a label refused or taken is answered with `suggestions`, free labels like it. One address per ' +
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
  output: siteAddressOutput.extend(inputRepairsOutput),
  async run(ctx, input) {
    // A bad label is refused before anything, the default site's creation included, is written.
    const reserved = await instanceReservedLabelsOf(ctx);
    const repaired =
      input.label === undefined
        ? undefined
        : repairAddressInput(input.label, addressPortsOf(ctx.services).sitesDomain);
    const wanted = repaired?.value;
    const said = { typed: input.label ?? null, repairs: repaired?.repairs ?? [] };
    const offer = async (e: unknown): Promise<never> => {
      if (!isDomainError(e) || wanted === undefined || !isRefusalOfLabel(e)) throw e;
      const suggestions = await freeLabelsLike(ctx, wanted, 'my-site', reserved);
      throw withSuggestions(e, { ...said, label: wanted, suggestions });
    };
    if (wanted !== undefined) {
      try {
        requireValidLabel(wanted, reserved);
      } catch (e) {
        await offer(e);
      }
    }
    const site = await resolveSite(ctx, input.siteId);
    const read = ctx.services.builder.read;

    const current = await read.addressOfSite(site.siteId);
    if (current) {
      // Claiming what the site holds (or asking for any address when it has one) changes nothing.
      if (wanted === undefined || wanted === current.label)
        return { ...addressOutput(ctx, current), ...said };
      throw conflict('builder.site_has_address', 'this site has an address; release it first', {
        label: current.label,
      });
    }

    const owner = ctx.actor.agentId;
    let candidates: string[];
    if (wanted !== undefined) {
      // Taken or held back by someone else: refused before any registry is asked, with free ones beside.
      const [known] = await read.addresses([wanted]);
      if (unavailableTo(known, owner, ctx.now))
        await offer(
          known?.state === 'released' || known?.state === 'deregistered'
            ? conflict('builder.label_held', `the address ${wanted} was released recently and is held back`, {
                label: wanted,
                holdUntil: known.holdUntil,
              })
            : conflict('builder.label_taken', `the address ${wanted} is taken`, { label: wanted }),
        );
      candidates = [wanted];
    } else candidates = await freeLabelsFromTitle(ctx, site, reserved);

    // A suggestion the global instance refuses gives way to the next one; a label asked for does not.
    let claimed;
    try {
      claimed = (await claimFirstFree(ctx, site, candidates, wanted === undefined)).address;
    } catch (e) {
      return offer(e);
    }
    return { ...addressOutput(ctx, claimed), ...said };
  },
});
