import {
  decidePublish,
  isDomainError,
  publishNoteSchema,
  siteSuspendedError,
  uuidSchema,
  type SiteState,
  type VersionDecision,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { claimFirstFree, freeLabelsFromTitle } from './claim-free-address.js';
import { commitOnSite, renderDraft, storeFiles } from './render-version.js';
import type { SiteAddressView } from './ports/site-addresses.js';
import { resolveSite } from './resolve-site.js';
import { addressOutput, instanceReservedLabelsOf, siteAddressOutput } from './site-address-support.js';

export const publishSite = defineBuilderOperation({
  name: 'svc.builder.publish',
  title: 'Publish a site',
  description:
    'Publish the site’s current draft: its version (rendered and stored first if the site has none with ' +
    'this content) becomes the one the site serves, with an optional note shown in the versions list. ' +
    'A site without an address gets one derived from its title in the same call (Ada’s Bakery → ' +
    'adas-bakery, adas-bakery-2 when taken), so a published site can always be opened at `liveUrl`. ' +
    'Publishing what is already published changes nothing. A suspended site cannot publish.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('one of your sites; defaults to your default site'),
    note: publishNoteSchema.optional().describe('why this publish, in a line (shown with the version)'),
  }),
  output: z.object({
    siteId: z.string(),
    versionId: z.string(),
    manifestHash: z.string(),
    draftRevision: z.number(),
    /** Whether the site had a version of this content already (then nothing was rendered anew). */
    reused: z.boolean(),
    /** False when this version was already the published one (nothing changed). */
    published: z.boolean(),
    /** The site's address (claimed by this call when `addressClaimed`). */
    address: siteAddressOutput,
    addressClaimed: z.boolean(),
    /** Where the published site is seen now. */
    liveUrl: z.string(),
  }),
  async run(ctx, input) {
    const site = await resolveSite(ctx, input.siteId);
    // Refused before any rendering; the decider refuses again against the stream itself.
    if (site.suspendedReason !== null) throw siteSuspendedError(site.suspendedReason);
    // Rendered (and so checked) before the address is claimed: a draft that cannot publish claims nothing.
    const rendered = await renderDraft(ctx, site);
    await storeFiles(ctx.services.builder.blobs, rendered.files);
    const note = input.note === '' ? undefined : input.note;
    const publish = (state: SiteState) =>
      decidePublish({ ownerAgentId: ctx.actor.agentId, rendered, note }, state);
    const read = ctx.services.builder.read;
    let held = await read.addressOfSite(site.siteId);
    let claimed: { address: SiteAddressView; decision: VersionDecision | undefined } | undefined;
    if (!held) {
      // The first publish without an address claims one from the title in the same append.
      try {
        const reserved = await instanceReservedLabelsOf(ctx);
        const labels = await freeLabelsFromTitle(ctx, site, reserved);
        claimed = await claimFirstFree(ctx, site, labels, true, publish);
      } catch (e) {
        // A publish of the same site at the same time claimed it first: publish under that address.
        const raced =
          isDomainError(e) && (e.code === 'builder.label_taken' || e.code === 'log.stream_conflict');
        held = raced ? await read.addressOfSite(site.siteId) : null;
        if (!held) throw e;
      }
    }
    const address = claimed?.address ?? held!;
    const decision = claimed?.decision ?? (await commitOnSite(ctx, site.siteId, publish)).decision;
    const out = addressOutput(ctx, address);
    return {
      siteId: site.siteId,
      versionId: decision.versionId,
      manifestHash: rendered.manifestHash,
      draftRevision: rendered.draftRevision,
      reused: decision.reused,
      published: decision.events.some((e) => e.type === 'site.published'),
      address: out,
      addressClaimed: held === null,
      liveUrl: out.url,
    };
  },
});
