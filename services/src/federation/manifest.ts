// GET /api/federation/manifest and /.well-known/universal-manifest.json: who this instance is, its keys
// with their validity and where its endpoints are, signed with the instance key (Ed25519 over the
// RFC 8785 form of everything but the signature member) and valid 30 days from issuance.
import { DomainError } from '@tributary/domain';
import {
  manifestExpiryOf,
  signUniversalManifest,
  stampSecond,
  UM_CONTEXT,
} from '../shared/universal-manifest.js';

export { signUniversalManifest };
import type { DocumentSigner } from '../ports/signer.js';
import type { InstanceKeyView } from './ports/federation-surface.js';
import type { InstanceView } from '../ports/read-models.js';
import type { FederationWithSurfaceServices } from './federation-operation.js';

export const MANIFEST_TYPE = 'tributary.instance_manifest';

export interface ManifestFacts {
  instance: Pick<InstanceView, 'instanceId' | 'role' | 'name' | 'baseUrl'>;
  globalUrl: string | null;
  keys: readonly InstanceKeyView[];
  keyId: string;
  issuedAt: Date;
}

function manifestEndpoints(baseUrl: string) {
  const api = `${baseUrl}/api/federation`;
  return {
    feed: `${api}/events`,
    eventsExport: `${api}/events/export`,
    eventsImport: `${api}/events/import`,
    mutations: `${api}/mutations`,
    query: `${api}/query`,
    entityStatus: `${api}/entity-status`,
    discover: `${api}/discover`,
    status: `${api}/status`,
    nodeStatus: `${api}/node-status`,
    registry: `${api}/registry`,
    manifest: `${api}/manifest`,
    universalManifest: `${baseUrl}/.well-known/universal-manifest.json`,
    mcp: `${baseUrl}/api/mcp`,
  };
}

/** The spatial-web endpoints (docs/spatial.md), advertised in the universal manifest. */
export function spatialEndpoints(baseUrl: string) {
  return {
    spatialFabric: `${baseUrl}/.well-known/spatial-fabric`,
    world: `${baseUrl}/wow/world`,
    portal: `${baseUrl}/wow/portal/{portalId}`,
    view: `${baseUrl}/wow/view/{viewId}`,
    spatial: `${baseUrl}/wow/spatial/{spatialID}`,
    user: `${baseUrl}/wow/user`,
    presence: `${baseUrl}/wow/user/{userId}`,
    traveller: `${baseUrl}/api/spatial-web/traveller`,
    tags: `${baseUrl}/api/spatial-web/tags/{scheme}/{id}`,
    entityManifest: `${baseUrl}/api/universal-manifest/{kind}/{id}`,
  };
}

/** The manifest without its signature: exactly what the signature covers (in its RFC 8785 form). */
export function unsignedInstanceManifest(f: ManifestFacts): Record<string, unknown> {
  return {
    v: 1,
    type: MANIFEST_TYPE,
    instanceId: f.instance.instanceId,
    role: f.instance.role,
    name: f.instance.name,
    baseUrl: f.instance.baseUrl,
    globalUrl: f.globalUrl,
    keys: f.keys.map((k) => ({
      keyId: k.keyId,
      algorithm: 'Ed25519',
      publicKey: k.publicKey,
      validFrom: k.validFrom,
      validUntil: k.validUntil,
      ...(k.revokedAfter !== null && { revokedAfter: k.revokedAfter }),
    })),
    keyId: f.keyId,
    endpoints: manifestEndpoints(f.instance.baseUrl),
    issuedAt: stampSecond(f.issuedAt),
    expiresAt: manifestExpiryOf(f.issuedAt),
  };
}

/**
 * The instance's universal manifest, in the shape of Universal Manifest v0.2: the instance as its one
 * shard, signed like the UM reference signer (Ed25519, JCS, everything but `signature`).
 */
export function unsignedUniversalManifest(f: ManifestFacts): Record<string, unknown> {
  const subject = `urn:uuid:${f.instance.instanceId}`;
  return {
    '@context': UM_CONTEXT,
    '@id': `${f.instance.baseUrl}/.well-known/universal-manifest.json`,
    '@type': 'um:Manifest',
    manifestVersion: '0.2',
    subject,
    issuedAt: stampSecond(f.issuedAt),
    expiresAt: manifestExpiryOf(f.issuedAt),
    shards: [
      {
        '@type': 'um:Shard',
        name: 'instance',
        entity: {
          '@id': subject,
          '@type': 'tributary:Instance',
          name: f.instance.name,
          role: f.instance.role,
          url: f.instance.baseUrl,
          manifest: manifestEndpoints(f.instance.baseUrl).manifest,
          endpoints: manifestEndpoints(f.instance.baseUrl),
          spatialEndpoints: spatialEndpoints(f.instance.baseUrl),
        },
      },
    ],
  };
}

async function factsOf(services: FederationWithSurfaceServices): Promise<ManifestFacts> {
  const surface = services.federationSurface;
  const instance = await services.instance.read.get();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  return {
    instance,
    globalUrl: surface.globalUrl ?? null,
    keys: await surface.read.instanceKeys(),
    keyId: surface.documents.keyId,
    issuedAt: services.clock.now(),
  };
}

/**
 * The signed instance manifest: `sig` over the RFC 8785 form of everything but `sig` and `signatures`, with the
 * current key. During a rotation's overlap every previous key still valid (and not revoked) that this
 * process holds signs the same bytes too, listed in `signatures` after the current key's: whoever trusts an old
 * key can adopt the new one from the manifest alone (docs/federation.md#signed-manifest).
 */
export function signInstanceManifest(
  unsigned: Record<string, unknown>,
  documents: Pick<DocumentSigner, 'sign' | 'keyId'> & Partial<Pick<DocumentSigner, 'signWith'>>,
  overlapping: readonly string[] = [],
): Record<string, unknown> {
  const sig = documents.sign(unsigned);
  const endorsements = overlapping
    .filter((keyId) => keyId !== documents.keyId)
    .flatMap((keyId) => {
      const s = documents.signWith?.(keyId, unsigned);
      return s === undefined ? [] : [{ keyId, sig: s }];
    });
  return endorsements.length === 0
    ? { ...unsigned, sig }
    : { ...unsigned, sig, signatures: [{ keyId: unsigned.keyId, sig }, ...endorsements] };
}

/** The keys that sign beside the current one at `at`: rotated out, still within their overlap, not revoked. */
export function overlappingKeys(keys: readonly InstanceKeyView[], at: Date): string[] {
  const t = at.getTime();
  return keys
    .filter(
      (k) =>
        k.validUntil !== null &&
        Date.parse(k.validUntil) > t &&
        (k.revokedAfter === null || Date.parse(k.revokedAfter) > t),
    )
    .map((k) => k.keyId);
}

export async function issueInstanceManifest(
  services: FederationWithSurfaceServices,
): Promise<Record<string, unknown>> {
  const { documents } = services.federationSurface;
  const facts = await factsOf(services);
  return signInstanceManifest(
    unsignedInstanceManifest(facts),
    documents,
    overlappingKeys(facts.keys, facts.issuedAt),
  );
}

export async function issueUniversalManifest(
  services: FederationWithSurfaceServices,
): Promise<Record<string, unknown>> {
  const { documents } = services.federationSurface;
  const facts = await factsOf(services);
  return signUniversalManifest(unsignedUniversalManifest(facts), documents, facts.instance.baseUrl);
}
