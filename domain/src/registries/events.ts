// The event catalogue: every event type the log can hold, with its versioned data schema, composed from
// every area's list. Data schemas are strict for what we write; imported events are parsed leniently.
import type { z } from 'zod';
import { accountsEvents } from '../accounts/events.js';
import { assistantEvents } from '../assistant/events.js';
import { agentsEvents } from '../agents/events.js';
import { assistantAccountEvents } from '../assistant/account-events.js';
import { assistantAttachmentEvents } from '../assistant/attachment-events.js';
import { builderDomainEvents } from '../builder/domain-binding.js';
import { builderEvents } from '../builder/events.js';
import { builderMediaEvents } from '../builder/media-events.js';
import { federationEvents } from '../federation/events.js';
import { instanceEvents } from '../instance/events.js';
import { mailEvents } from '../mail/events.js';
import { manifestsEvents } from '../manifests/events.js';
import { presenceEvents } from '../spatial/presence-events.js';
import { oauthEvents } from '../oauth/events.js';
import { paymentsEvents } from '../payments/events.js';
import type { EventDefinition } from '../shared/define-event.js';
import { spatialEvents } from '../spatial/events.js';
import { ssoEvents } from '../sso/events.js';
import { tokensEvents } from '../tokens/events.js';

export const EVENT_CATALOGUE = [
  ...instanceEvents,
  ...agentsEvents,
  ...accountsEvents,
  ...tokensEvents,
  ...federationEvents,
  ...oauthEvents,
  ...builderEvents,
  ...builderDomainEvents,
  ...builderMediaEvents,
  ...assistantEvents,
  ...spatialEvents,
  ...assistantAccountEvents,
  ...manifestsEvents,
  ...presenceEvents,
  ...assistantAttachmentEvents,
  ...paymentsEvents,
  ...mailEvents,
  ...ssoEvents,
] as const satisfies readonly EventDefinition[];

type KnownEvent = (typeof EVENT_CATALOGUE)[number];
type EventType = KnownEvent['type'];
export type EventData<T extends EventType> = z.infer<Extract<KnownEvent, { type: T }>['data']>;

const byType = new Map<string, EventDefinition>();
for (const d of EVENT_CATALOGUE) {
  if (byType.has(d.type)) throw new Error(`duplicate event type ${d.type}`);
  byType.set(d.type, d);
}

export const eventDefinition = (type: string): EventDefinition | undefined => byType.get(type);
export const allEventDefinitions = (): EventDefinition[] => [...byType.values()];
/** Types shown on the public feed and offered to peers. */
export const feedEventTypes = (): string[] =>
  allEventDefinitions()
    .filter((d) => d.federable && d.public)
    .map((d) => d.type);
