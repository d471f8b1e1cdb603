// The instance's own events: its creation, its signing keys and who operates it.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { instanceSettingsUpdated } from './settings.js';

export const INSTANCE_ROLES = ['global', 'person', 'group', 'locale', 'region'] as const;
export type InstanceRole = (typeof INSTANCE_ROLES)[number];

const signingKey = z.strictObject({
  keyId: z.string().min(1),
  algorithm: z.literal('Ed25519'),
  publicKey: z.string().min(43), // base64url of the raw 32-byte key
  validFrom: z.string(),
});

export const instanceInitialized = defineEvent({
  type: 'instance.initialized',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    instanceId: z.string(),
    role: z.enum(INSTANCE_ROLES),
    name: z.string(),
    baseUrl: httpUrlSchema(),
    primaryAgentId: z.string(),
    signingKey,
  }),
});
export const instanceKeyAdded = defineEvent({
  type: 'instance.key_added',
  version: 1,
  federable: true,
  public: true,
  data: signingKey,
});
/**
 * The instance signs with a new key from `validFrom` on (docs/operations.md#rotating-the-signing-key). It is
 * signed with the previous key, so whoever trusts that key can adopt the new one; the previous key stays
 * valid (it still verifies, and processes that have not switched yet may still sign with it) until
 * `previousValidUntil`.
 */
export const instanceKeyRotated = defineEvent({
  type: 'instance.key_rotated',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    keyId: z.string().min(1),
    algorithm: z.literal('Ed25519'),
    publicKey: z.string().min(43),
    validFrom: z.string(),
    previousKeyId: z.string().min(1),
    previousValidUntil: z.string(),
  }),
});
/**
 * A key of the instance is compromised: whatever it signed that occurred at or after `revokedAfter` is not
 * the instance's. Signed with a key that is not the revoked one.
 */
export const instanceKeyRevoked = defineEvent({
  type: 'instance.key_revoked',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ keyId: z.string().min(1), revokedAfter: z.string() }),
});
export const instanceControllerGranted = defineEvent({
  type: 'instance.controller_granted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    accountId: z.string(),
    agentId: z.string(),
    reason: z.enum(['first_account', 'admin']),
  }),
});
export const instanceControllerRevoked = defineEvent({
  type: 'instance.controller_revoked',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ accountId: z.string() }),
});

export const instanceEvents = [
  instanceInitialized,
  instanceKeyAdded,
  instanceKeyRotated,
  instanceKeyRevoked,
  instanceControllerGranted,
  instanceControllerRevoked,
  instanceSettingsUpdated,
] as const satisfies readonly EventDefinition[];

/** The data of one of this area's events, by type. */
export type InstanceEventData<T extends (typeof instanceEvents)[number]['type']> = z.infer<
  Extract<(typeof instanceEvents)[number], { type: T }>['data']
>;
