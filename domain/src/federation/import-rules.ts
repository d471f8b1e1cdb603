// The rules an event from a peer must pass before anything is written (docs/architecture.md#envelope):
// it comes from the peer that sent it, is of a type we federate, is recent, and names agents the way its
// origin may. Pure: the caller brings the clock, the peer and what the log already knows.
import { z } from 'zod';
import { DomainError } from '../shared/errors.js';
import type { CodeOfKind } from '../registries/error-codes.js';
import type { Envelope } from '../shared/envelope.js';
import { eventDefinition } from '../registries/events.js';

/** At most this many events per import batch. */
export const IMPORT_MAX_EVENTS = 500;
/** At most this many bytes of request body per import batch. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Events older than this are refused by push and import (pull-sync may pass `allowHistorical`). */
export const EVENT_WINDOW_SECONDS = 7 * 24 * 60 * 60;
/** Clock skew tolerated on signed requests and on event times from the future. */
export const CLOCK_SKEW_SECONDS = 300;

/** Imported events keep the origin's stream name, namespaced under the origin in the local log. */
export const importedStream = (origin: string, stream: string) => `${origin}/${stream}`;

const rejected = (code: CodeOfKind<'invalid'>, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'invalid', message, details);

interface ImportCheckContext {
  /** The authenticated peer: the only origin it may send. */
  peerId: string;
  /** The peer is in the relay role: it may deliver other origins' events (each checked on its own). */
  relay?: boolean;
  /** This instance's id: a relay never needs to hand us our own events. */
  self?: string;
  now: Date;
  allowHistorical?: boolean;
}

/** Why this (verified) event may not be imported from this peer, or null. */
export function importRefusal(e: Envelope, ctx: ImportCheckContext): DomainError | null {
  // Only a relay may hand over another instance's events; any other sender must be the event's origin.
  if (e.origin !== ctx.peerId && !ctx.relay)
    return rejected('federation.origin_mismatch', 'the event was not issued by the peer that sent it', {
      origin: e.origin,
    });
  if (ctx.self !== undefined && e.origin === ctx.self)
    return rejected('federation.own_event', 'the event is one of ours', { origin: e.origin });
  const def = eventDefinition(e.type);
  if (!def) return rejected('federation.unknown_event_type', `unknown event type ${e.type}`);
  if (!def.federable) return rejected('federation.not_federable', `${e.type} events are not exchanged`);
  const at = Date.parse(e.occurredAt);
  const now = ctx.now.getTime();
  if (at > now + CLOCK_SKEW_SECONDS * 1000)
    return rejected('federation.future_event', 'the event occurred in the future');
  if (!ctx.allowHistorical && at < now - EVENT_WINDOW_SECONDS * 1000)
    return rejected('federation.stale_event', 'the event is older than the replay window');
  const data = importedData(e.type, e.data);
  if (!data.success)
    return rejected('federation.bad_event_data', `the data of ${e.type} does not match its schema`, {
      issues: data.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  if (e.type === 'agent.created' && e.stream !== `agent-${(e.data as { agentId: string }).agentId}`)
    return rejected(
      'federation.bad_event_data',
      'agent.created must be on the stream of the agent it creates',
    );
  return null;
}

/** Per event type's schema, its lenient form (made once: zod compiles every new schema on first use). */
const lenientSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** Lenient parse of an imported event's data: known fields must match, unknown ones are kept. */
function importedData(type: string, data: unknown) {
  const schema = eventDefinition(type)!.data;
  let lenient = lenientSchemas.get(schema);
  if (!lenient) {
    lenient = schema instanceof z.ZodObject ? schema.loose() : schema;
    lenientSchemas.set(schema, lenient);
  }
  return lenient.safeParse(data);
}

type AgentRole = 'actor' | 'subject' | 'owner';

/** The agent ids (as the origin names them) an event refers to, each with why. */
export function agentReferences(e: Envelope): { agentId: string; role: AgentRole }[] {
  const refs: { agentId: string; role: AgentRole }[] = [{ agentId: e.actorId, role: 'actor' }];
  const d = e.data as Record<string, unknown>;
  const add = (v: unknown, role: AgentRole) => {
    if (typeof v === 'string' && v) refs.push({ agentId: v, role });
  };
  switch (e.type) {
    case 'agent.created':
      add(d.agentId, 'subject');
      add(d.ownerAgentId, 'owner');
      break;
    case 'agent.profile_updated':
    case 'agent.deleted':
      if (e.stream.startsWith('agent-')) add(e.stream.slice('agent-'.length), 'subject');
      break;
    case 'instance.initialized':
      add(d.primaryAgentId, 'subject');
      break;
  }
  return refs;
}

/** Where an agent id already belongs: ours, bound to an origin, or unknown. */
export type AgentHome = { kind: 'local' } | { kind: 'remote'; origin: string } | { kind: 'unknown' };

/**
 * An origin may only speak of agents that are its own: an id that is one of ours, or that another
 * origin already named, is refused (an actor claiming another instance, or a placeholder upgrade from
 * an origin that does not own it).
 */
export function foreignAgentRefusal(
  origin: string,
  refs: readonly { agentId: string; role: AgentRole }[],
  homeOf: (agentId: string) => AgentHome,
): DomainError | null {
  for (const ref of refs) {
    const home = homeOf(ref.agentId);
    if (home.kind === 'unknown' || (home.kind === 'remote' && home.origin === origin)) continue;
    return rejected(
      ref.role === 'actor' ? 'federation.foreign_actor' : 'federation.foreign_agent',
      ref.role === 'actor'
        ? 'the event is attributed to an agent of another instance'
        : 'the event speaks of an agent that belongs to another instance',
      { agentId: ref.agentId, role: ref.role },
    );
  }
  return null;
}

/**
 * An origin's stream, as imported here, must stay a chain: each event extends it past the highest
 * version already imported for that (origin, stream), and no version is held by two events.
 *
 * Versions may skip (an origin's stream can hold private events it never sends, e.g. the instance
 * stream's controller grants), so a gap cannot be told from a withheld event and is accepted; a
 * lower version arriving after a higher one can never fill anything and would overwrite newer
 * state, so it is refused, never held. An honest peer never sends that: its push and its pull each
 * deliver its feed in sequence order, one batch at a time, and a stream's versions follow that order.
 *
 * `head` is the highest version imported for the stream (0 when none); `heldBy` the id of the event
 * already imported at this event's version, if any (an exact duplicate was answered before this).
 */
export function chainRefusal(
  e: Envelope,
  head: number,
  heldBy: string | undefined,
  /** The version lies in a recorded gap of a relayed origin's stream: it may fill it. */
  fillsGap = false,
): DomainError | null {
  if (e.streamVersion > head) return null;
  if (fillsGap && heldBy === undefined) return null;
  if (heldBy !== undefined && heldBy !== e.id)
    return rejected(
      'federation.equivocation',
      `the origin signed two different events at version ${e.streamVersion} of ${e.stream}`,
      { stream: e.stream, streamVersion: e.streamVersion, heldEventId: heldBy },
    );
  return rejected(
    'federation.out_of_order',
    `version ${e.streamVersion} of ${e.stream} arrived after version ${head}`,
    { stream: e.stream, streamVersion: e.streamVersion, head },
  );
}

/**
 * The versions an accepted event skips past its stream's head (null when it follows on): for a relayed
 * origin, what the relay may have withheld — or private events of the origin, which only the origin can
 * tell (its public query answers without them).
 */
export function chainGap(e: Envelope, head: number): { fromVersion: number; toVersion: number } | null {
  return e.streamVersion > head + 1 ? { fromVersion: head + 1, toVersion: e.streamVersion - 1 } : null;
}
