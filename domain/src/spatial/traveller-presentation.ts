// A traveller's presentation (docs/spatial.md#presentations): a Universal Manifest v0.2 signed by the
// traveller's home instance, carrying only what they chose to share, bound to one destination world
// (`audience`), short-lived and with a nonce so a destination admits it once. Pure: the shape and the
// checks that need no key; the signature and the issuer's key are checked by the services.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';
import { uuidSchema } from '../shared/ids.js';

export const PRESENTATION_TYPE = 'tributary:TravellerPresentation';
/** A presentation lives this long by default (SPATIAL_PRESENTATION_SECONDS), and never longer than the max. */
export const PRESENTATION_DEFAULT_SECONDS = 300;
export const PRESENTATION_MAX_SECONDS = 3600;
/** A presence lasts this long after each admission (SPATIAL_PRESENCE_SECONDS) unless renewed. */
export const PRESENCE_DEFAULT_SECONDS = 900;
export const PRESENCE_MAX_SECONDS = 86_400;
/** What a traveller may choose to share. */
export const TRAVELLER_SHARE_FIELDS = ['displayName', 'avatar', 'home'] as const;
export type TravellerShareField = (typeof TRAVELLER_SHARE_FIELDS)[number];

const base64url = /^[A-Za-z0-9_-]+$/;
const urnUuid = z.string().regex(/^urn:uuid:[0-9a-f-]{36}$/i, 'urn:uuid:<uuid>');

/** What the traveller shares, in the field names of the OpenUserManifest 0.0.1 `content`. */
export const travellerContentSchema = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  avatarAssetURI: httpUrlSchema(2000).optional(),
  /** Their home: the canonical URL of their person manifest on their home instance. */
  home: httpUrlSchema(2000).optional(),
});
export type TravellerContent = z.infer<typeof travellerContentSchema>;

export const presentationAudienceSchema = z.strictObject({
  /** The destination instance's origin (scheme, host, port). */
  instance: httpUrlSchema(200),
  worldId: uuidSchema,
});

const iso = z.string().datetime({ offset: true });

/** Everything the signature covers. */
export const unsignedPresentationSchema = z.strictObject({
  '@context': z.string().max(200),
  '@id': urnUuid,
  '@type': z.literal('um:Manifest'),
  manifestVersion: z.literal('0.2'),
  type: z.literal(PRESENTATION_TYPE),
  subject: urnUuid,
  issuer: z.strictObject({ instanceId: uuidSchema, baseUrl: httpUrlSchema(200) }),
  audience: presentationAudienceSchema,
  nonce: z.string().regex(base64url).min(22).max(64),
  issuedAt: iso,
  expiresAt: iso,
  content: travellerContentSchema,
  shards: z
    .array(
      z.strictObject({
        '@type': z.literal('um:Shard'),
        name: z.literal('traveller'),
        entity: z.record(z.string(), z.unknown()),
      }),
    )
    .max(1),
});
export type UnsignedPresentation = z.infer<typeof unsignedPresentationSchema>;

export const presentationSignatureSchema = z.strictObject({
  algorithm: z.literal('Ed25519'),
  canonicalization: z.literal('JCS-RFC8785'),
  keyRef: z.string().max(400),
  created: iso,
  publicKeySpkiB64: z.string().max(200),
  value: z.string().regex(base64url).max(200),
});

export const presentationSchema = unsignedPresentationSchema.extend({
  signature: presentationSignatureSchema,
});
export type Presentation = z.infer<typeof presentationSchema>;

/** The key id a signature names: the fragment of `keyRef`, which must point at the issuer's manifest. */
export function keyIdOf(p: Presentation): string | null {
  const prefix = `${p.issuer.baseUrl.replace(/\/+$/, '')}/api/federation/manifest#`;
  if (!p.signature.keyRef.startsWith(prefix)) return null;
  const keyId = p.signature.keyRef.slice(prefix.length);
  return keyId.length > 0 ? keyId : null;
}

export type PresentationTiming = 'ok' | 'expired' | 'not_yet_valid' | 'too_long';

/** Whether a presentation is usable at `now` (allowing `skewSeconds` of clock difference either way). */
export function presentationTiming(
  p: Pick<UnsignedPresentation, 'issuedAt' | 'expiresAt'>,
  now: Date,
  skewSeconds: number,
): PresentationTiming {
  const issued = Date.parse(p.issuedAt);
  const expires = Date.parse(p.expiresAt);
  if (expires <= issued || expires - issued > PRESENTATION_MAX_SECONDS * 1000) return 'too_long';
  if (issued - now.getTime() > skewSeconds * 1000) return 'not_yet_valid';
  if (now.getTime() >= expires) return 'expired';
  return 'ok';
}
