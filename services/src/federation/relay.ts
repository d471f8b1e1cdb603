// Relaying through the global instance (docs/federation.md#relay).
// The relay's side: what it delivers to each peer (everything on its feed but that peer's own events, and
// only the origins the peer follows), the peers' manifests it serves, and each peer's following choice.
// The sovereign's side: the keys of origins it is not peered with, learned from their signed manifests
// (pinned on first sight, replaced only under the pinned key), and gaps in their chains filled from the
// origin's own public events.
import {
  DomainError,
  isDomainError,
  isGlobalInstance,
  isRelayRole,
  notFound,
  originKeyAdoption,
  relayFollowingToTell,
  relayPeerFollowingSchema,
  relayOriginStream,
  requireGlobalInstance,
  type NewEvent,
  type OriginKey,
  type OriginKeysLearnedData,
  type OriginManifest,
  type RelayFollowing,
  type RelayPeerFollowing,
} from '@tributary/domain';
import type { FederationOperationServices } from './federation-operation.js';
import type { PeerView } from './ports/federation.js';

/** What the relay puts on a peer's page: not the peer's own events; of others, the origins it follows. */
export async function relayFilterFor(
  services: FederationOperationServices,
  peerId: string,
): Promise<{ exceptOrigin?: string; origins?: readonly string[] | null }> {
  const instance = await services.instance.read.get();
  if (!instance || !isGlobalInstance(instance.role)) return {};
  const following = await services.federation.store.peerFollowing(peerId);
  return {
    exceptOrigin: peerId,
    origins: following && following.mode === 'list' ? [instance.instanceId, ...following.origins] : null,
  };
}

/** GET /api/federation/origins/<origin>/manifest on the relay: a peer's signed manifest, as it signed it. */
export async function servedOriginManifest(
  services: FederationOperationServices,
  origin: string,
): Promise<string> {
  const instance = await services.instance.read.get();
  requireGlobalInstance(instance?.role, 'serve the manifests of its peers');
  const fed = services.federation;
  const peer = await fed.read.peer(origin);
  if (!peer || peer.blocked)
    throw notFound('federation.origin_unknown', 'no such origin among the peers here');
  const now = services.clock.now();
  try {
    if (!fed.manifests)
      throw new DomainError('federation.unavailable', 'unavailable', 'no outbound calls here');
    const { text, manifest } = await fed.manifests.fetch(manifestUrl(peer.baseUrl));
    // The relay vouches for nothing, but serves only what the peer it knows by that id signed, with a
    // key the peer has not revoked (a thief of a revoked key could sign a manifest with it).
    if (
      manifest.instanceId !== origin ||
      !peer.keys.some((k) => k.revokedAfter === null && manifest.signedBy.includes(k.keyId))
    )
      throw new DomainError('federation.bad_manifest', 'invalid', 'the peer served a manifest not its own');
    await fed.store.saveOriginManifest(origin, text, now);
    return text;
  } catch (e) {
    const kept = await fed.store.originManifest(origin);
    if (kept !== null) return kept;
    throw e;
  }
}

/** POST /api/federation/relay/following on the relay: a peer says which origins it takes. */
export async function receivePeerFollowing(
  services: FederationOperationServices,
  peerId: string,
  body: unknown,
) {
  const instance = await services.instance.read.get();
  requireGlobalInstance(instance?.role, 'relay events');
  const parsed = relayPeerFollowingSchema.safeParse(body);
  if (!parsed.success)
    throw new DomainError('input.invalid', 'invalid', 'body: { mode: all | list, origins?: [instance id] }');
  await services.federation.store.setPeerFollowing(peerId, parsed.data, services.clock.now());
  return parsed.data;
}

const manifestUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/api/federation/manifest`;
const relayManifestUrl = (relayBaseUrl: string, origin: string) =>
  `${relayBaseUrl.replace(/\/+$/, '')}/api/federation/origins/${encodeURIComponent(origin)}/manifest`;

export interface OriginKeys {
  keys: OriginKey[];
  /**
   * The record of newly learned keys, to append with the import (null when nothing was learned): decided
   * on the keys pinned at `expectedVersion` of the origin's stream; the import decides again under its
   * lock from `manifest` if that stream moved meanwhile (relearnedUnderLock).
   */
  learned: { event: NewEvent; expectedVersion: number; manifest: OriginManifest } | null;
  /** Why keys the batch needs could not be learned (refuses the events signed with them). */
  failure: DomainError | null;
}

/**
 * The keys of an origin this instance is not peered with, enough for the key ids given: those pinned,
 * or — when some key id is not among them — learned from its signed manifest, fetched from the origin
 * itself when its address is known, else from the relay that delivered the events. On first sight every
 * key the manifest lists is pinned; afterwards only a manifest signed by a pinned key changes them.
 */
export async function originKeysFor(
  services: FederationOperationServices,
  origin: string,
  keyIds: ReadonlySet<string>,
  relay: PeerView,
): Promise<OriginKeys> {
  const fed = services.federation;
  const view = await fed.read.relayOrigin(origin);
  const pinned: OriginKey[] = (view?.keys ?? []).map(
    ({ keyId, publicKey, validFrom, validUntil, revokedAfter }) => ({
      keyId,
      publicKey,
      validFrom,
      validUntil,
      ...(revokedAfter && { revokedAfter }),
    }),
  );
  if ([...keyIds].every((id) => pinned.some((k) => k.keyId === id)))
    return { keys: pinned, learned: null, failure: null };
  const unknown = (reason: string) =>
    new DomainError(
      'federation.origin_key_unknown',
      'invalid',
      `no key of ${origin} signed this: ${reason}`,
      {
        origin,
      },
    );
  if (!fed.manifests) return { keys: pinned, learned: null, failure: unknown('no outbound calls here') };
  const urls = [
    ...(view ? [manifestUrl(view.baseUrl)] : []),
    ...(isRelayRole(relay.role) ? [relayManifestUrl(relay.baseUrl, origin)] : []),
  ];
  let failure: DomainError = unknown('no manifest of it can be fetched');
  for (const url of urls) {
    try {
      const { manifest } = await fed.manifests.fetch(url);
      const decision = originKeyAdoption(origin, pinned, manifest);
      const keys = [
        ...pinned.map((p) => decision.keys.find((k) => k.keyId === p.keyId) ?? p),
        ...decision.keys.filter((k) => !pinned.some((p) => p.keyId === k.keyId)),
      ];
      if (decision.keys.length === 0) {
        if ([...keyIds].every((id) => keys.some((k) => k.keyId === id)))
          return { keys, learned: null, failure: null };
        failure = unknown(`its manifest at ${url} does not list the key`);
        continue;
      }
      const data: OriginKeysLearnedData = {
        origin,
        name: manifest.name,
        role: manifest.role as OriginKeysLearnedData['role'],
        baseUrl: manifest.baseUrl,
        keys: decision.keys,
        source: decision.source,
      };
      return {
        keys,
        learned: {
          event: { stream: relayOriginStream(origin), type: 'federation.origin_keys_learned', data },
          expectedVersion: view?.version ?? 0,
          manifest,
        },
        failure: null,
      };
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // A manifest that tries to replace the pinned key is the finding to report, whatever comes after.
      if (e.code === 'federation.key_not_announced') failure = e;
      else if (failure.code !== 'federation.key_not_announced') failure = unknown(`${url}: ${e.message}`);
    }
  }
  return { keys: pinned, learned: null, failure };
}

/**
 * The keys learned for `origin`, decided again on the keys pinned now (read under the origin's import
 * lock, at `version` of its stream), when that stream moved since they were decided: another import may
 * have pinned the same keys already (nothing left to record), or others (then the manifest may no longer
 * be believed). Returns what to record, and the keys pinned after it.
 */
export async function relearnedUnderLock(
  services: FederationOperationServices,
  origin: string,
  learned: NonNullable<OriginKeys['learned']>,
  version: number,
): Promise<{ learned: OriginKeys['learned']; keys: OriginKey[]; failure: DomainError | null }> {
  const view = await services.federation.read.relayOrigin(origin);
  const pinned: OriginKey[] = (view?.keys ?? []).map(
    ({ keyId, publicKey, validFrom, validUntil, revokedAfter }) => ({
      keyId,
      publicKey,
      validFrom,
      validUntil,
      ...(revokedAfter && { revokedAfter }),
    }),
  );
  try {
    const decision = originKeyAdoption(origin, pinned, learned.manifest);
    const keys = [
      ...pinned.map((p) => decision.keys.find((k) => k.keyId === p.keyId) ?? p),
      ...decision.keys.filter((k) => !pinned.some((p) => p.keyId === k.keyId)),
    ];
    if (decision.keys.length === 0) return { learned: null, keys, failure: null };
    const data = {
      ...(learned.event.data as OriginKeysLearnedData),
      keys: decision.keys,
      source: decision.source,
    };
    return {
      learned: { ...learned, event: { ...learned.event, data }, expectedVersion: version },
      keys,
      failure: null,
    };
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return { learned: null, keys: pinned, failure: e };
  }
}

/** How often a relay is asked to take a following choice before the call gives up, and the waits between. */
const TELL_RELAY_WAITS_MS = [0, 200, 800];

/**
 * Tells every relay (unblocked peer of role global) which origins to deliver here: a signed, idempotent
 * POST, tried up to three times each. Throws `federation.relay_unavailable` when a relay does not take it,
 * so the caller records nothing and can be repeated. Returns the relays told.
 */
export async function tellRelaysFollowing(
  services: FederationOperationServices,
  following: RelayPeerFollowing,
): Promise<string[]> {
  const fed = services.federation;
  const relays = (await fed.read.peers()).filter((p) => isRelayRole(p.role) && !p.blocked);
  if (relays.length > 0 && !fed.client)
    throw new DomainError(
      'federation.relay_unavailable',
      'unavailable',
      'this process makes no outbound calls',
    );
  for (const relay of relays) {
    let last: unknown;
    for (const wait of TELL_RELAY_WAITS_MS) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        await fed.client!.setRelayFollowing(relay.baseUrl, following);
        last = undefined;
        break;
      } catch (e) {
        last = e;
        // A relay that answered with a refusal will answer it again.
        if (isDomainError(e) && e.kind !== 'unavailable') break;
      }
    }
    if (last !== undefined)
      throw new DomainError(
        'federation.relay_unavailable',
        'unavailable',
        `the relay ${relay.name} did not take the choice: ${(last as Error).message}`,
        { peerId: relay.peerId },
      );
  }
  return relays.map((r) => r.peerId);
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * A follow or unfollow (`write`) that changes the origins this instance's people follow, from `before`
 * to `after`: when the instance takes the origins its people follow (mode `people`), the relays are
 * told `after` first — if one does not take it, nothing is written — then the change is written. A
 * concurrent change may have told the relays its own set in between, so the set as it stands after the
 * write is told again when it differs (at worst a relay delivers an origin no longer followed, which the
 * import refuses, until the next change).
 */
export async function changingPeopleFollowing<T>(
  services: FederationOperationServices,
  origins: { before: readonly string[]; after: readonly string[] },
  write: () => Promise<T>,
): Promise<T> {
  const fed = services.federation;
  const { following } = await fed.read.relayFollowing();
  if (following.mode !== 'people' || sameSet(origins.before, origins.after)) return write();
  await tellRelaysFollowing(services, relayFollowingToTell(following, origins.after));
  const result = await write();
  const now = await fed.read.followedOrigins();
  if (!sameSet(now, origins.after))
    await tellRelaysFollowing(services, relayFollowingToTell(following, now)).catch(() => undefined);
  return result;
}

export function followingOutput(f: RelayFollowing) {
  return { mode: f.mode, origins: f.origins };
}
