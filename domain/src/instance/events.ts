// The instance's own events: its creation, its signing keys and who operates it.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

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
  instanceControllerGranted,
  instanceControllerRevoked,
] as const satisfies readonly EventDefinition[];

/** The data of one of this area's events, by type. */
export type InstanceEventData<T extends (typeof instanceEvents)[number]['type']> = z.infer<
  Extract<(typeof instanceEvents)[number], { type: T }>['data']
>;
