import {
  conflict,
  decideCreateSite,
  initialDraftState,
  initialSiteState,
  isDomainError,
  repairAddressInput,
  requireValidLabel,
  siteDraftStream,
  siteStream,
  siteTitleSchema,
  STARTER_TEMPLATE_WORDS,
  STARTER_TEMPLATES,
  type StarterTemplate,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation, type BuilderOperationContext } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { createSiteStreams, defaultSiteId } from './resolve-site.js';
import { siteOutput } from './schemas.js';
import {
  addressLabelInput,
  addressPortsOf,
  claimAtGlobal,
  claimStreams,
  decideClaimIn,
  giveBackAtGlobal,
  globalRegistryOf,
  instanceReservedLabelsOf,
  recordHostOnce,
  unavailableTo,
  withAddressConflicts,
  type GlobalRegistry,
} from './site-address-support.js';

export const createSite = defineBuilderOperation({
  name: 'svc.builder.create_site',
  title: 'Create a site',
  description:
    "Create a site for the owner, with a one-page starter draft. An owner's first site becomes their default site. " +
    'With `label`, the site is created holding that address (as svc.builder.claim_address would claim it), or not at all. ' +
    'With `template`, the first draft starts from a starter template instead: ' +
    STARTER_TEMPLATES.map(
      (t) => `\`${t}\` (${STARTER_TEMPLATE_WORDS[t].hint.replace(/\.$/, '').toLowerCase()})`,
    ).join(', ') +
    '; none of them holds a form.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    title: siteTitleSchema,
    label: addressLabelInput.optional(),
    template: z
      .enum(STARTER_TEMPLATES)
      .optional()
      .describe(
        'A starter template for the first draft; without it, one page with the title as its heading.',
      ),
  }),
  output: siteOutput,
  async run(ctx, input) {
    const read = ctx.services.builder.read;
    // The first site is the default one, under the id derived from its owner; if a concurrent first
    // call took that id, this one is an ordinary site.
    const defaultId = defaultSiteId(ctx.services.ids, ctx.actor.agentId);
    const hasDefault = !!(await read.site(defaultId));
    let siteId = hasDefault ? ctx.services.ids.entityId() : defaultId;
    const address = input.label === undefined ? null : await prepareAddress(ctx, input.label, siteId);
    const create = (id: string, isDefault: boolean) => {
      const site = { siteId: id, title: input.title, isDefault, template: input.template };
      return address ? createWithAddress(ctx, site, address) : createSiteStreams(ctx, site, 'operation');
    };
    try {
      if (hasDefault || !(await create(defaultId, true))) {
        if (!hasDefault) siteId = ctx.services.ids.entityId();
        if (!(await create(siteId, false))) throw new Error('a fresh random site id was already taken');
      }
    } catch (e) {
      if (address?.global) await giveBackAtGlobal(ctx, address.global, { label: address.label, siteId });
      throw e;
    }
    const site = await read.site(siteId);
    if (!site) throw new Error('site missing from its inline projection after commit');
    return site;
  },
});

interface PreparedAddress {
  label: string;
  global: GlobalRegistry | null;
  /** The site the global entry names (a concurrent first site can change which one this becomes). */
  registeredFor: string;
}

/**
 * A label for a site about to be created: valid, free here (or held for this owner), and — on an
 * instance peered with the global one — claimed there first, so a refusal writes nothing.
 */
async function prepareAddress(
  ctx: BuilderOperationContext,
  typed: string,
  siteId: string,
): Promise<PreparedAddress> {
  // Typed carelessly ("Ada's Bakery"), it is repaired as claim_address repairs it.
  const label = repairAddressInput(typed, addressPortsOf(ctx.services).sitesDomain).value;
  requireValidLabel(label, await instanceReservedLabelsOf(ctx));
  const [known] = await ctx.services.builder.read.addresses([label]);
  if (unavailableTo(known, ctx.actor.agentId, ctx.now))
    throw known?.holdUntil && known.state !== 'claimed' && known.state !== 'registered'
      ? conflict('builder.label_held', `the address ${label} was released recently and is held back`, {
          label,
          holdUntil: known.holdUntil,
        })
      : conflict('builder.label_taken', `the address ${label} is taken`, { label });
  const global = await globalRegistryOf(ctx);
  if (global) {
    await recordHostOnce(ctx, global);
    await claimAtGlobal(global, { label, siteId });
  }
  return { label, global, registeredFor: siteId };
}

/**
 * The site, its starter draft and its address in one append: all of it or nothing. A site stream
 * another call created first (the default site's derived id) answers false, as createSiteStreams does.
 */
async function createWithAddress(
  ctx: BuilderOperationContext,
  site: { siteId: string; title: string; isDefault: boolean; template?: StarterTemplate | undefined },
  address: PreparedAddress,
): Promise<boolean> {
  const claim = { label: address.label, siteId: site.siteId };
  // The same instance registering again only updates the site the global entry names.
  if (address.global && address.registeredFor !== site.siteId) {
    await claimAtGlobal(address.global, claim);
    address.registeredFor = site.siteId;
  }
  const sites = siteStream(site.siteId);
  const drafts = siteDraftStream(site.siteId);
  try {
    await withAddressConflicts(address.label, () =>
      ctx.commit(
        [sites, drafts, ...claimStreams(claim)],
        (states) => [
          ...decideCreateSite({ ...site, ownerAgentId: ctx.actor.agentId }, initialSiteState()),
          ...decideClaimIn(ctx, claim, states),
        ],
        {
          known: new Map([
            [sites, { state: initialSiteState(), version: 0 }],
            [drafts, { state: initialDraftState(), version: 0 }],
          ]),
        },
      ),
    );
    return true;
  } catch (e) {
    const stream = isDomainError(e) && e.code === 'log.stream_conflict' ? e.details?.stream : undefined;
    if (stream === sites || stream === drafts) return false;
    throw e;
  }
}
