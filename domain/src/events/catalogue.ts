// The event catalogue: every event type the log can hold, with its versioned data schema.
// Data schemas are strict for what we write; imported events are parsed leniently (passthrough).
import { z } from 'zod';
import { httpUrlSchema } from '../http-url.js';
import { defineEvent, type EventDefinition } from './define-event.js';

export const INSTANCE_ROLES = ['global', 'person', 'group', 'locale', 'region'] as const;
export type InstanceRole = (typeof INSTANCE_ROLES)[number];
export const AGENT_KINDS = ['person', 'group', 'locale', 'region', 'global', 'persona'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

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

export const agentCreated = defineEvent({
  type: 'agent.created',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    agentId: z.string(),
    kind: z.enum(AGENT_KINDS),
    name: z.string(),
    handle: z.string().optional(),
    ownerAgentId: z.string().optional(),
  }),
});

export const agentProfileUpdated = defineEvent({
  type: 'agent.profile_updated',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    name: z.string().optional(),
    // Set once, when a person instance's first account takes the primary agent as its own.
    handle: z.string().optional(),
    bio: z.string().optional(),
    avatarUrl: httpUrlSchema().optional(),
  }),
});

// A persona's owner deleted it. Its events stay in the log; it stops acting, owning and being listed, and
// its handle stays reserved (a new persona cannot take it and pass as the old one).
export const agentDeleted = defineEvent({
  type: 'agent.deleted',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({}),
});

export const handleClaimed = defineEvent({
  type: 'handle.claimed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ handle: z.string(), agentId: z.string() }),
});

export const emailClaimed = defineEvent({
  type: 'email.claimed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ accountId: z.string() }),
});

export const accountRegistered = defineEvent({
  type: 'account.registered',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    accountId: z.string(),
    agentId: z.string(),
    email: z.string().optional(),
    handle: z.string().optional(),
    // bcrypt hash: the log is the source of truth for read models, so the hash lives here;
    // account events are never federable and never on the public feed.
    passwordHash: z.string(),
  }),
});

export const sessionStarted = defineEvent({
  type: 'session.started',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    sessionId: z.string(),
    accountId: z.string(),
    tokenHash: z.string(), // sha256 of the cookie value; the cookie itself is never stored
    expiresAt: z.string(),
  }),
});

export const sessionEnded = defineEvent({
  type: 'session.ended',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ reason: z.enum(['sign_out', 'expired', 'revoked']) }),
});

export const EVENT_CATALOGUE = [
  instanceInitialized,
  instanceKeyAdded,
  instanceControllerGranted,
  instanceControllerRevoked,
  agentCreated,
  agentProfileUpdated,
  agentDeleted,
  handleClaimed,
  emailClaimed,
  accountRegistered,
  sessionStarted,
  sessionEnded,
] as const satisfies readonly EventDefinition[];

export type KnownEvent = (typeof EVENT_CATALOGUE)[number];
export type EventType = KnownEvent['type'];
export type EventData<T extends EventType> = z.infer<Extract<KnownEvent, { type: T }>['data']>;

const byType = new Map<string, EventDefinition>();
export function registerEvents(defs: readonly EventDefinition[]) {
  for (const d of defs) {
    if (byType.has(d.type) && byType.get(d.type) !== d) throw new Error(`duplicate event type ${d.type}`);
    byType.set(d.type, d);
  }
}
registerEvents(EVENT_CATALOGUE);

export const eventDefinition = (type: string): EventDefinition | undefined => byType.get(type);
export const allEventDefinitions = (): EventDefinition[] => [...byType.values()];
/** Types shown on the public feed and offered to peers. */
export const feedEventTypes = (): string[] =>
  allEventDefinitions()
    .filter((d) => d.federable && d.public)
    .map((d) => d.type);
