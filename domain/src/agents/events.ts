// Agents (persons, personas and the instance's own) and the handles they claim.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

const AGENT_KINDS = ['person', 'group', 'locale', 'region', 'global', 'persona'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

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

export const agentsEvents = [
  agentCreated,
  agentProfileUpdated,
  agentDeleted,
  handleClaimed,
] as const satisfies readonly EventDefinition[];

/** The data of one of this area's events, by type. */
export type AgentEventData<T extends (typeof agentsEvents)[number]['type']> = z.infer<
  Extract<(typeof agentsEvents)[number], { type: T }>['data']
>;
