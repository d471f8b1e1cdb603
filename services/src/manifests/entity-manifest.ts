// GET /api/universal-manifest/<kind>/<id> (docs/manifests.md): a signed Universal Manifest v0.2 of one
// entity this instance is home to — a person (or persona), an organization (a group, locale or region
// agent), a published site, a public world — signed with the instance key exactly like the instance's
// own /.well-known/universal-manifest.json, and valid 30 days from issuance like it. Only what the owner
// publishes: an agent whose owner turned its manifest on (svc.manifest.set_publication), a site that is
// published and not suspended, a public world. Everything else, and an unknown id, is the same 404.
import {
  AGENT_KINDS_OF_MANIFEST,
  MANIFEST_KINDS,
  invalid,
  notFound,
  uuidSchema,
  type ManifestKind,
} from '@tributary/domain';
import {
  manifestExpiryOf,
  signUniversalManifest,
  stampSecond,
  UM_CONTEXT,
} from '../shared/universal-manifest.js';
import { siteLiveUrl } from '../builder/index.js';
import { defineManifestsSigningOperation } from './manifests-operation.js';
import { z } from 'zod';
import type { ManifestsOperationContext, ManifestsSigningContext } from './manifests-operation.js';
import type { AgentView, InstanceView } from '../ports/read-models.js';

/** Where an entity's manifest lives. */
export const entityManifestUrl = (baseUrl: string, kind: ManifestKind, id: string) =>
  `${baseUrl}/api/universal-manifest/${kind}/${id}`;

/** Public pointers to an entity: null where it has none. */
interface Pointers {
  canonical: string;
  manifest: string;
  feed: string;
  site: string | null;
  world: string | null;
}

interface EntityFacts {
  kind: ManifestKind;
  id: string;
  entityType: string;
  entity: Record<string, unknown>;
  pointers: Pointers;
  claims: Record<string, unknown>[];
  consents: Record<string, unknown>[];
}

/** What a kind needs to find one public entity; null: unknown or not published (the same 404). */
type Resolver = (ctx: ManifestsOperationContext, id: string) => Promise<EntityFacts | null>;

const feedOf = (baseUrl: string, stream: string) =>
  `${baseUrl}/api/federation/query?resource=events&stream=${encodeURIComponent(stream)}`;

/** The site an agent publishes: its first published, unsuspended site that has a public address. */
async function publicSiteUrlOf(ctx: ManifestsOperationContext, agentId: string) {
  for (const site of await ctx.services.builder.read.sitesOf(agentId)) {
    const url = await siteLiveUrl(ctx, site);
    if (url) return url;
  }
  return null;
}

/** The agent's first public world hosted here, as its /wow URL; null when it has none. */
async function publicWorldUrlOf(ctx: ManifestsOperationContext, agentId: string) {
  const worlds = (await ctx.services.spatial?.read.worldsOf(agentId)) ?? [];
  const world = worlds.find((w) => w.origin === null && w.visibility === 'public');
  return world ? `${ctx.instance.baseUrl}/wow/world/${world.worldId}` : null;
}

function agentResolver(kind: 'person' | 'organization'): Resolver {
  return async (ctx, id) => {
    const { services, instance } = ctx;
    const agent = await services.agents.read.agent(id);
    if (!agent || !isLocalPublicAgent(agent, instance) || !AGENT_KINDS_OF_MANIFEST[kind].includes(agent.kind))
      return null;
    const publication = await services.manifests.read.agentPublication(id);
    if (!publication?.published) return null;
    const base = instance.baseUrl;
    const subject = `urn:uuid:${id}`;
    return {
      kind,
      id,
      entityType: kind === 'person' ? 'tributary:Person' : 'tributary:Organization',
      entity: {
        '@id': subject,
        agentKind: agent.kind,
        name: agent.name,
        handle: agent.handle,
        bio: agent.bio,
        avatarUrl: agent.avatarUrl,
        ...(agent.ownerAgentId && { owner: `urn:uuid:${agent.ownerAgentId}` }),
      },
      pointers: {
        canonical: `${base}/api/federation/registry/${id}`,
        manifest: entityManifestUrl(base, kind, id),
        feed: feedOf(base, `agent-${id}`),
        site: await publicSiteUrlOf(ctx, id),
        world: await publicWorldUrlOf(ctx, id),
      },
      claims: [
        { '@type': 'um:Claim', name: 'home', value: base },
        { '@type': 'um:Claim', name: 'agentKind', value: agent.kind },
        ...(agent.handle ? [{ '@type': 'um:Claim', name: 'handle', value: agent.handle }] : []),
        { '@type': 'um:Claim', name: 'createdAt', value: agent.createdAt },
      ],
      consents: [
        { '@type': 'um:Consent', purpose: 'publication', granted: true, grantedAt: publication.updatedAt },
      ],
    };
  };
}

/** An agent that lives here: not a placeholder, not deleted, not materialized from a peer. */
const isLocalPublicAgent = (agent: AgentView, instance: InstanceView) =>
  !agent.placeholder &&
  agent.deletedAt === null &&
  (agent.origin === null || agent.origin === instance.instanceId);

const siteResolver: Resolver = async (ctx, id) => {
  const { services, instance } = ctx;
  const site = await services.builder.read.site(id);
  if (!site) return null;
  const url = await siteLiveUrl(ctx, site);
  if (!url || !site.publishedAt) return null;
  const base = instance.baseUrl;
  return {
    kind: 'site',
    id,
    entityType: 'tributary:Site',
    entity: {
      '@id': `urn:uuid:${id}`,
      name: site.title,
      description: site.description,
      language: site.language,
      url,
      owner: `urn:uuid:${site.ownerAgentId}`,
    },
    pointers: {
      canonical: url,
      manifest: entityManifestUrl(base, 'site', id),
      feed: feedOf(base, `site-${id}`),
      site: url,
      world: null,
    },
    claims: [
      { '@type': 'um:Claim', name: 'home', value: base },
      { '@type': 'um:Claim', name: 'publishedVersion', value: site.publishedVersionId },
    ],
    consents: [{ '@type': 'um:Consent', purpose: 'publication', granted: true, grantedAt: site.publishedAt }],
  };
};

/** A public world hosted here (not a peer's world that arrived through the feed). */
const worldResolver: Resolver = async (ctx, id) => {
  const record = await ctx.services.spatial?.read.world(id);
  if (!record || record.origin !== null || record.visibility !== 'public') return null;
  const base = ctx.instance.baseUrl;
  const url = `${base}/wow/world/${id}`;
  const content = record.state.content;
  return {
    kind: 'world',
    id,
    entityType: 'tributary:World',
    entity: {
      '@id': `urn:uuid:${id}`,
      label: content?.label ?? null,
      owner: `urn:uuid:${record.ownerAgentId}`,
      endpoints: { world: url, spatial: `${base}/wow/spatial/${record.spatialId}` },
    },
    pointers: {
      canonical: url,
      manifest: entityManifestUrl(base, 'world', id),
      feed: feedOf(base, `world-${id}`),
      site: await publicSiteUrlOf(ctx, record.ownerAgentId),
      world: url,
    },
    claims: [
      { '@type': 'um:Claim', name: 'home', value: base },
      { '@type': 'um:Claim', name: 'graphRevision', value: record.graphRevision },
    ],
    // The world is public: its owner chose to show it; `grantedAt` is its last change while public.
    consents: [{ '@type': 'um:Consent', purpose: 'publication', granted: true, grantedAt: record.updatedAt }],
  };
};

const RESOLVERS: Record<ManifestKind, Resolver> = {
  person: agentResolver('person'),
  organization: agentResolver('organization'),
  site: siteResolver,
  world: worldResolver,
};

/** The manifest without its signature: exactly what the signature covers. */
export function unsignedEntityManifest(
  facts: EntityFacts,
  instance: Pick<InstanceView, 'instanceId' | 'baseUrl'>,
  issuedAt: Date,
): Record<string, unknown> {
  const subject = `urn:uuid:${facts.id}`;
  return {
    '@context': UM_CONTEXT,
    '@id': facts.pointers.manifest,
    '@type': 'um:Manifest',
    manifestVersion: '0.2',
    subject,
    issuer: `urn:uuid:${instance.instanceId}`,
    issuedAt: stampSecond(issuedAt),
    expiresAt: manifestExpiryOf(issuedAt),
    pointers: facts.pointers,
    claims: facts.claims,
    consents: facts.consents,
    shards: [
      { '@type': 'um:Shard', name: facts.kind, entity: { '@type': facts.entityType, ...facts.entity } },
    ],
  };
}

/** Validates the kind and the id, then signs the manifest of a public entity (or answers its 404). */
export async function issueEntityManifest(
  ctx: ManifestsSigningContext,
  kind: string,
  id: string,
): Promise<Record<string, unknown>> {
  if (!(MANIFEST_KINDS as readonly string[]).includes(kind))
    throw notFound('manifest.unknown_kind', 'no universal manifests of that kind here', {
      kinds: MANIFEST_KINDS,
    });
  if (!uuidSchema.safeParse(id).success)
    throw invalid('manifest.malformed_id', 'the entity id is not a UUID');
  const facts = await RESOLVERS[kind as ManifestKind](ctx, id.toLowerCase());
  if (!facts) throw notFound('manifest.not_found', 'no such public entity here');
  return signUniversalManifest(
    unsignedEntityManifest(facts, ctx.instance, ctx.services.clock.now()),
    ctx.services.federationSurface.documents,
    ctx.instance.baseUrl,
  );
}

export const readEntityManifest = defineManifestsSigningOperation({
  name: 'svc.manifest.read',
  title: 'Read the universal manifest of an entity',
  description:
    'The signed Universal Manifest v0.2 of a person, organization, site or world this instance is home to, when its owner publishes it (docs/manifests.md). Public: GET /api/universal-manifest/<kind>/<id>.',
  kind: 'query',
  scopes: [],
  enabledFor: [],
  public: true,
  input: z.strictObject({ kind: z.string().max(40), id: z.string().max(100) }),
  async run(ctx, input) {
    return issueEntityManifest(ctx, input.kind, input.id);
  },
});
