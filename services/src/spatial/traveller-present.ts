// svc.spatial.present_traveller (POST /api/spatial-web/traveller): the presentation a signed-in person
// carries through a portal (docs/spatial.md#presentations) — a Universal Manifest v0.2 of only what they
// chose to share, signed with this instance's key, bound to one destination world, valid a few minutes,
// with a fresh nonce. The destination's door (POST /wow/user) admits it once.
import {
  httpUrlSchema,
  invalid,
  PRESENTATION_DEFAULT_SECONDS,
  PRESENTATION_TYPE,
  TRAVELLER_SHARE_FIELDS,
  uuidSchema,
  type TravellerContent,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialSigningOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { signUniversalManifest, stampSecond, UM_CONTEXT } from '../shared/universal-manifest.js';

/** A world's /wow URL: `<instance origin>/wow/world/<worldId>` (what spatial-fabric and portals list). */
const WORLD_URL =
  /^(https?:\/\/[^/?#]+)\/wow\/world\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

export const travellerDestinationUrl = httpUrlSchema(300)
  .refine((u) => WORLD_URL.test(u), { message: 'a world URL: <instance>/wow/world/<worldId>' })
  .describe("the destination world's URL, <instance>/wow/world/<worldId>");

export const travellerDestination = z.strictObject({
  instance: httpUrlSchema(200)
    .optional()
    .describe("the destination instance's base URL; absent: a world of this instance"),
  worldId: uuidSchema.describe('the destination world'),
});

export const presentTraveller = defineSpatialSigningOperation({
  name: 'svc.spatial.present_traveller',
  title: 'Take a traveller presentation',
  description:
    'A signed, short-lived presentation of the acting person (or persona) for one destination world, carrying only the fields chosen in `share` (displayName, avatar, home). POST it as the body of the destination’s POST /wow/user to be admitted there.',
  // It signs a credential that admits the person elsewhere: an act, confirmed before the assistant runs it.
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    destination: z.union([travellerDestination, travellerDestinationUrl]),
    share: z
      .array(z.enum(TRAVELLER_SHARE_FIELDS))
      .max(TRAVELLER_SHARE_FIELDS.length)
      .default([])
      .describe('what the destination may see; nothing when empty'),
  }),
  output: z.object({
    presentation: z.record(z.string(), z.json()),
    /** Where to present it: the destination's POST /wow/user. */
    door: z.string(),
    expiresAt: z.string(),
  }),
  async run(ctx, input) {
    const agent = ctx.actor;
    if (agent.kind !== 'person' && agent.kind !== 'persona')
      throw invalid('spatial.traveller_not_a_person', 'only a person or a persona travels', {
        agentKind: agent.kind,
      });
    const base = ctx.instance.baseUrl;
    const wanted =
      typeof input.destination === 'string'
        ? {
            instance: WORLD_URL.exec(input.destination)![1]!,
            worldId: WORLD_URL.exec(input.destination)![2]!,
          }
        : input.destination;
    const destination = new URL(wanted.instance ?? base).origin;
    const share = new Set(input.share);
    const content: TravellerContent = {};
    if (share.has('displayName')) content.name = agent.name;
    if (share.has('avatar') && agent.avatarUrl) content.avatarAssetURI = agent.avatarUrl;
    if (share.has('home')) {
      // Their home: their published person manifest, else their entry in this instance's registry.
      const published = (await ctx.services.manifests.read.agentPublication(agent.agentId))?.published;
      content.home = published
        ? `${base}/api/universal-manifest/person/${agent.agentId}`
        : `${base}/api/federation/registry/${agent.agentId}`;
    }
    const seconds = ctx.services.config.travellers?.presentationSeconds ?? PRESENTATION_DEFAULT_SECONDS;
    const now = ctx.services.clock.now();
    const issuedAt = stampSecond(now);
    const expiresAt = stampSecond(new Date(Date.parse(issuedAt) + seconds * 1000));
    const subject = `urn:uuid:${agent.agentId}`;
    const unsigned = {
      '@context': UM_CONTEXT,
      '@id': `urn:uuid:${ctx.services.ids.entityId()}`,
      '@type': 'um:Manifest',
      manifestVersion: '0.2',
      type: PRESENTATION_TYPE,
      subject,
      issuer: { instanceId: ctx.instance.instanceId, baseUrl: base },
      audience: { instance: destination, worldId: wanted.worldId.toLowerCase() },
      nonce: ctx.services.ids.nonce(),
      issuedAt,
      expiresAt,
      content,
      shards: [
        {
          '@type': 'um:Shard',
          name: 'traveller',
          entity: { '@id': subject, '@type': 'tributary:Traveller', ...content },
        },
      ],
    };
    return {
      presentation: signUniversalManifest(unsigned, ctx.services.federationSurface.documents, base),
      door: `${destination}/wow/user`,
      expiresAt,
    };
  },
});
