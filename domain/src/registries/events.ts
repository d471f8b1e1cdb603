// The event catalogue: every event type the log can hold, with its versioned data schema, composed from
// every area's list. Data schemas are strict for what we write; imported events are parsed leniently.
import type { z } from 'zod';
import { accountsEvents } from '../accounts/events.js';
import { assistantEvents } from '../assistant/events.js';
import { agentsEvents } from '../agents/events.js';
import { builderEvents } from '../builder/events.js';
import { federationEvents } from '../federation/events.js';
import { instanceEvents } from '../instance/events.js';
import { mailEvents } from '../mail/events.js';
import { manifestsEvents } from '../manifests/events.js';
import { oauthEvents } from '../oauth/events.js';
import { paymentsEvents } from '../payments/events.js';
import type { EventDefinition } from '../shared/define-event.js';
import { spatialEvents } from '../spatial/events.js';
import { ssoEvents } from '../sso/events.js';
import { tokensEvents } from '../tokens/events.js';
import type { Area } from './areas.js';

/** Each area's events, in the order the catalogue lists them. */
export const AREA_EVENTS = {
  instance: instanceEvents,
  agents: agentsEvents,
  accounts: accountsEvents,
  tokens: tokensEvents,
  federation: federationEvents,
  oauth: oauthEvents,
  builder: builderEvents,
  assistant: assistantEvents,
  spatial: spatialEvents,
  manifests: manifestsEvents,
  payments: paymentsEvents,
  mail: mailEvents,
  sso: ssoEvents,
  // The operators' acts are the instance's and the accounts' events.
  admin: [],
} as const satisfies Record<Area, readonly EventDefinition[]>;

type KnownEvent = (typeof AREA_EVENTS)[Area][number];

export const EVENT_CATALOGUE: readonly KnownEvent[] = Object.values(AREA_EVENTS).flat();

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
