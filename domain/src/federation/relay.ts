// Relaying through the global instance (docs/federation.md#relay): a sovereign takes, from a peer in the
// relay role, events whose origin is another instance. A relayed event is believed because its origin
// signed it, never because the relay says so: the origin's keys are pinned on first sight of its signed
// manifest and replaced only by a manifest the pinned key signed, or by the operator.
import { z } from 'zod';
import { DomainError } from '../shared/errors.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { httpUrlSchema } from '../shared/http-url.js';
import { INSTANCE_ROLES } from '../instance/index.js';
import { isGlobalInstance } from './roles.js';

/** The peer role whose feed carries other origins' events. */
export const isRelayRole = (role: string): boolean => isGlobalInstance(role);

/** At most this many origins in a following list. */
export const RELAY_FOLLOW_MAX_ORIGINS = 200;

/**
 * all: every origin; list: the origins listed; people: the origins whose agents someone here follows
 * (agent.followed), kept up to date as people follow and unfollow.
 */
export const RELAY_FOLLOW_MODES = ['all', 'list', 'people'] as const;
export type RelayFollowMode = (typeof RELAY_FOLLOW_MODES)[number];

export const relayFollowingSchema = z.strictObject({
  mode: z.enum(RELAY_FOLLOW_MODES),
  /** With `list`: the instance ids whose relayed events this instance takes. */
  origins: z.array(z.string().min(1).max(64)).max(RELAY_FOLLOW_MAX_ORIGINS).default([]),
});
export type RelayFollowing = z.infer<typeof relayFollowingSchema>;

/** At most this many origins in what a sovereign tells a relay (a `people` set may exceed a list's 200). */
export const RELAY_PEER_FOLLOW_MAX_ORIGINS = 1_000;

/**
 * What a sovereign tells a relay (POST /api/federation/relay/following): all, or a list of origins. The
 * relay needs no more: a `people` choice is told as the list of origins its people follow.
 */
export const relayPeerFollowingSchema = z.strictObject({
  mode: z.enum(['all', 'list']),
  origins: z.array(z.string().min(1).max(64)).max(RELAY_PEER_FOLLOW_MAX_ORIGINS).default([]),
});
export type RelayPeerFollowing = z.infer<typeof relayPeerFollowingSchema>;

/**
 * The origins this instance takes, as a relay is told them: `people` becomes the list of origins
 * followed (`all` past the most a relay takes: this instance still refuses the others itself).
 */
export function relayFollowingToTell(
  f: RelayFollowing,
  followedOrigins: readonly string[],
): RelayPeerFollowing {
  if (f.mode !== 'people') return { mode: f.mode, origins: f.origins };
  if (followedOrigins.length > RELAY_PEER_FOLLOW_MAX_ORIGINS) return { mode: 'all', origins: [] };
  return { mode: 'list', origins: [...followedOrigins].sort() };
}

/**
 * Whether a relayed event of `origin` is wanted under this following choice (`followedOrigins`: the
 * origins someone here follows, which the `people` mode takes).
 */
export const followsOrigin = (
  f: RelayFollowing,
  origin: string,
  followedOrigins: readonly string[] = [],
): boolean => f.mode === 'all' || (f.mode === 'list' ? f.origins : followedOrigins).includes(origin);

const originKey = z.strictObject({
  keyId: z.string().min(1),
  /** base64url of the raw 32-byte Ed25519 public key. */
  publicKey: z.string().min(43),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  /** Set on a key the origin revoked: what it signed that occurred at or after this is not the origin's. */
  revokedAfter: z.string().nullable().optional(),
});
export type OriginKey = z.infer<typeof originKey>;

export const ORIGIN_KEY_SOURCES = ['first_seen', 'announced', 'operator'] as const;

/**
 * This instance learned (or the operator set) the keys of an origin it is not peered with, on stream
 * `relay-origin-<origin>`. Every key listed is upserted: a new one pinned, a known one's `validUntil`
 * updated. Private: whom this instance believes is its own business.
 */
export const originKeysLearned = defineEvent({
  type: 'federation.origin_keys_learned',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    origin: z.string(),
    name: z.string(),
    role: z.enum(INSTANCE_ROLES),
    baseUrl: httpUrlSchema(),
    keys: z.array(originKey).min(1),
    source: z.enum(ORIGIN_KEY_SOURCES),
  }),
});
export type OriginKeysLearnedData = z.infer<typeof originKeysLearned.data>;

/** The operator chose which origins' relayed events this instance takes (stream `relay-following`). */
export const relayFollowingSet = defineEvent({
  type: 'federation.relay_following_set',
  version: 1,
  federable: false,
  public: false,
  data: relayFollowingSchema,
});

export const RELAY_EVENTS = [
  originKeysLearned,
  relayFollowingSet,
] as const satisfies readonly EventDefinition[];

export const relayOriginStream = (origin: string) => `relay-origin-${origin}`;
export const RELAY_FOLLOWING_STREAM = 'relay-following';

/** What a verified manifest says, and which of its listed keys signed it. */
export interface OriginManifest {
  instanceId: string;
  role: string;
  name: string;
  baseUrl: string;
  keys: OriginKey[];
  /** Key ids (listed in `keys`) whose signature over the manifest verifies. */
  signedBy: string[];
}

/**
 * Which keys of `manifest` to adopt for `origin`, given the keys pinned for it: on first sight every key
 * it lists (trust on first use: the manifest must be signed by one of them); afterwards only under a
 * signature by a pinned key whose pinned public key is the one listed. Returns the keys to record (new or
 * changed), empty when nothing changes.
 */
export function originKeyAdoption(
  origin: string,
  pinned: readonly OriginKey[],
  manifest: OriginManifest,
): { keys: OriginKey[]; source: 'first_seen' | 'announced' } {
  if (manifest.instanceId !== origin)
    throw new DomainError('federation.bad_manifest', 'invalid', `the manifest is not ${origin}'s`);
  if (manifest.signedBy.length === 0)
    throw new DomainError(
      'federation.bad_manifest',
      'invalid',
      'the manifest is not signed by a key it lists',
    );
  // A revoked key vouches for nothing any more: whoever stole it could sign a manifest with it.
  const revokedIn = (keys: readonly OriginKey[], id: string) =>
    keys.some((k) => k.keyId === id && (k.revokedAfter ?? null) !== null);
  if (pinned.length === 0) {
    if (manifest.signedBy.every((id) => revokedIn(manifest.keys, id)))
      throw new DomainError(
        'federation.bad_manifest',
        'invalid',
        'the manifest is signed only by keys it says are revoked',
      );
    return { keys: manifest.keys, source: 'first_seen' };
  }
  const byId = new Map(pinned.map((k) => [k.keyId, k]));
  const underPinned = manifest.signedBy.some((id) => {
    const p = byId.get(id);
    return (
      p &&
      !revokedIn(pinned, id) &&
      !revokedIn(manifest.keys, id) &&
      manifest.keys.some((k) => k.keyId === id && k.publicKey === p.publicKey)
    );
  });
  if (!underPinned)
    throw new DomainError(
      'federation.key_not_announced',
      'invalid',
      `the manifest of ${origin} is not signed by a key pinned for it and not revoked`,
      { pinned: pinned.map((k) => k.keyId), signedBy: manifest.signedBy },
    );
  // A key id already pinned keeps its public key: a manifest may change its validity, never its bytes.
  for (const k of manifest.keys) {
    const p = byId.get(k.keyId);
    if (p && p.publicKey !== k.publicKey)
      throw new DomainError(
        'federation.key_not_announced',
        'invalid',
        `the manifest of ${origin} gives key ${k.keyId} other bytes than the pinned ones`,
      );
  }
  const changed = manifest.keys.filter((k) => {
    const p = byId.get(k.keyId);
    return !p || p.validUntil !== k.validUntil || (p.revokedAfter ?? null) !== (k.revokedAfter ?? null);
  });
  return { keys: changed, source: 'announced' };
}

/**
 * The origin's key valid when the event occurred, among keys known for it (null when none is): a retired
 * key still verifies its past, a revoked one only what occurred before its revocation.
 */
export function originKeyFor(
  keys: readonly Pick<OriginKey, 'keyId' | 'publicKey' | 'validUntil' | 'revokedAfter'>[],
  keyId: string,
  occurredAt: string,
): { publicKey: string } | { refusal: DomainError } | null {
  const key = keys.find((k) => k.keyId === keyId);
  if (!key) return null;
  if (key.revokedAfter && Date.parse(occurredAt) >= Date.parse(key.revokedAfter))
    return {
      refusal: new DomainError(
        'federation.key_revoked',
        'invalid',
        `the origin revoked key ${keyId} for what it signed from ${key.revokedAfter} on`,
      ),
    };
  if (key.validUntil && Date.parse(occurredAt) >= Date.parse(key.validUntil))
    return {
      refusal: new DomainError(
        'federation.key_retired',
        'invalid',
        'the key was retired before the event occurred',
      ),
    };
  return { publicKey: key.publicKey };
}
