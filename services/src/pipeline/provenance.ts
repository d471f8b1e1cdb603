// The provenance log: one `provenance.recorded` event per tool invocation, allowed or refused. For a
// command that commits, it rides in the same append (same transaction) as the command's own events;
// queries and failures append it alone. Its stream is new every time, so it never contends.
import {
  isDomainError,
  provenanceStream,
  summarizeArguments,
  type NewEvent,
  type ProvenanceData,
  type ProvenanceOutcome,
} from '@tributary/domain';
import type { Principal } from './principal.js';
import { sealEvents } from './seal-events.js';
import type { CoreServices } from './services.js';

/** Asks `execute` to record the invocation. */
export interface ProvenanceRequest {
  /** `performance.now()` when the request arrived; defaults to when `execute` started. */
  startedAt?: number;
  requestId?: string | undefined;
  /** The calling client as it names itself (an HTTP User-Agent). */
  client?: string | undefined;
  /** The confirmed plan step this invocation runs. */
  plan?: { planId: string; hash: string; step: number } | undefined;
  /**
   * Whether a failure means the call did not happen (e.g. another runner of the same plan step won):
   * then no entry is written, since the winner's entry records the one call that did.
   */
  didNotHappen?: ((error: unknown) => Promise<boolean>) | undefined;
}

export interface InvocationFacts {
  tool: string;
  surface: string;
  principal: Principal;
  actorId?: string | undefined;
  rawArgs: unknown;
  outcome: ProvenanceOutcome;
  errorCode?: string | undefined;
  durationMs: number;
  requestId?: string | undefined;
  client?: string | undefined;
  plan?: { planId: string; hash: string; step: number } | undefined;
}

/** Who is behind a call, as the provenance log names them. */
function controllerOf(
  p: Principal,
): Pick<ProvenanceData, 'authMode' | 'tokenJti' | 'controllerAccountId' | 'controllerAgentId'> {
  switch (p.kind) {
    case 'session':
      return { authMode: 'session', controllerAccountId: p.accountId, controllerAgentId: p.agentId };
    case 'token':
      return {
        authMode: 'token',
        tokenJti: p.jti,
        controllerAccountId: p.accountId,
        controllerAgentId: p.agentId,
      };
    case 'static':
    case 'peer':
    case 'system':
      return { authMode: p.kind, controllerAgentId: p.agentId };
    default:
      return { authMode: p.kind };
  }
}

/** How a failure shows in the log: refusals (scope, enabledFor, ownership) are `denied`. */
export function outcomeOf(error: unknown): { outcome: ProvenanceOutcome; errorCode: string } {
  if (!isDomainError(error)) return { outcome: 'error', errorCode: 'server.internal' };
  const denied =
    error.kind === 'forbidden' || error.kind === 'unauthenticated' || error.code === 'agent.not_found';
  return { outcome: denied ? 'denied' : 'error', errorCode: error.code };
}

export function provenanceEvent(services: CoreServices, f: InvocationFacts): NewEvent {
  const data: ProvenanceData = {
    tool: f.tool,
    surface: f.surface,
    ...controllerOf(f.principal),
    ...(f.actorId && { actorId: f.actorId }),
    args: summarizeArguments(f.rawArgs),
    outcome: f.outcome,
    ...(f.errorCode && { errorCode: f.errorCode }),
    durationMs: Math.max(0, Math.round(f.durationMs * 100) / 100),
    ...(f.requestId && { requestId: f.requestId.slice(0, 100) }),
    ...(f.client && { client: f.client.slice(0, 200) }),
    ...(f.plan && { plan: f.plan }),
  };
  return { stream: provenanceStream(services.ids.eventId()), type: 'provenance.recorded', data };
}

/** The envelope's actor: the agent acted for, else the principal's own agent, else the instance. */
const provenanceActor = (services: CoreServices, f: Pick<InvocationFacts, 'actorId' | 'principal'>) =>
  f.actorId ?? ('agentId' in f.principal ? f.principal.agentId : services.signer.origin);

/** Appends one provenance entry on its own (queries, refusals, failures). */
export async function appendProvenance(services: CoreServices, f: InvocationFacts): Promise<void> {
  const event = provenanceEvent(services, f);
  const sealed = await sealEvents([event], new Map([[event.stream, 0]]), {
    signer: services.signer,
    ids: services.ids,
    actorId: provenanceActor(services, f),
    occurredAt: services.clock.now().toISOString(),
  });
  await services.store.append(sealed);
}
