// Who is asking, on the global instance's payment routes (docs/payments.md#who-may-do-what): a sovereign
// instance by its signed request, or one of the global instance's own people by session or token. The
// URLs a buyer or seller is sent back to must be on that requesting instance.
import {
  DomainError,
  fold,
  GLOBAL_ROLE,
  forbidden,
  invalid,
  isDomainError,
  requireGlobalInstance,
  unauthenticated,
  type PaymentParty,
} from '@tributary/domain';
import type { PaymentsOperationContext } from './payments-operation.js';
import type { PaymentsAreaServices } from './payments-operation.js';

export interface Requester {
  /** The requesting instance: the signing peer, or this (global) instance for its own people. */
  instanceId: string;
  /** Its base URL: where success, cancel, return and refresh URLs must point. */
  baseUrl: string;
  /** The agent that asked here (the peer's instance agent, or the acting person). */
  agentId: string;
  /** Whether the request came from another instance. */
  remote: boolean;
}

/** On the global instance only (`federation.global_only` elsewhere): the requesting instance. */
export async function requesterOf(ctx: PaymentsOperationContext, action: string): Promise<Requester> {
  requireGlobalInstance(ctx.instance.role, action);
  const p = ctx.principal;
  if (p.kind === 'peer') {
    const peer = await peerOf(ctx.services, p.peerId);
    if (!peer) throw unauthenticated('federation.unknown_peer', 'no registered peer holds that key');
    return { instanceId: peer.peerId, baseUrl: peer.baseUrl, agentId: p.agentId, remote: true };
  }
  if (p.kind === 'anonymous' || p.kind === 'remote_viewer')
    throw unauthenticated('auth.required', 'sign in, or sign the request as a peer');
  return {
    instanceId: ctx.instance.instanceId,
    baseUrl: ctx.instance.baseUrl,
    agentId: ctx.actor.agentId,
    remote: false,
  };
}

/**
 * A payout asked for by this instance's own people: only an operator (a controller) asks, and names the
 * payee. Without it any person could pay themselves from the platform's balance.
 */
export function requireOperatorPayee(ctx: PaymentsOperationContext, payeeAgentId: string | undefined): void {
  const p = ctx.principal;
  const accountId = 'accountId' in p ? p.accountId : undefined;
  if (p.kind !== 'system' && !(accountId && ctx.instance.controllers.includes(accountId)))
    throw forbidden('auth.controller_only', 'only an operator of this instance may request a payout');
  if (!payeeAgentId)
    throw invalid('input.invalid', 'name the payee by payeeAgentId', { field: 'payeeAgentId' });
}

/**
 * The party a request names: for a peer, its agent `agentId` at that peer; for our own people, the acting
 * agent (they cannot name someone else's account), unless `named` lets them (an operator's payout).
 */
export function partyOf(
  requester: Requester,
  agentId: string | undefined,
  ctx: PaymentsOperationContext,
  named = false,
): PaymentParty {
  return requester.remote
    ? { instanceId: requester.instanceId, agentId: agentId ?? requester.agentId }
    : { instanceId: ctx.instance.instanceId, agentId: named && agentId ? agentId : ctx.actor.agentId };
}

/** Retries a commit that lost a race on its stream: the decider then sees the winner and writes nothing. */
export async function onceAgainOnConflict<T>(f: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await f();
    } catch (e) {
      if (i >= attempts || !isDomainError(e) || e.code !== 'log.stream_conflict') throw e;
    }
  }
}

/** The current state of each stream, folded (for the checks made before a processor call). */
export async function readStates(
  services: PaymentsAreaServices,
  streams: readonly string[],
): Promise<Map<string, unknown>> {
  const events = await services.store.readStreams(streams);
  return new Map(streams.map((s) => [s, fold(s, events.get(s) ?? [])]));
}

/** The instance's primary agent: the actor of what the instance records by itself (webhooks, delivery). */
export async function instanceActor(
  services: PaymentsAreaServices,
): Promise<{ agentId: string; instanceId: string; role: string }> {
  const instance = await services.instance.read.get();
  if (!instance) throw new Error('the instance is not initialized');
  return { agentId: instance.primaryAgentId, instanceId: instance.instanceId, role: instance.role };
}

/** A registered peer, read without the federation area (payments are a consumer of the registry only). */
export async function peerOf(services: PaymentsAreaServices, peerId: string) {
  if (!services.federation)
    throw new DomainError('federation.unavailable', 'unavailable', 'federation is not configured here');
  return services.federation.read.peer(peerId);
}

/**
 * The payment platform a sovereign instance asks: `GLOBAL_URL` when set, else the registered, unblocked
 * peer whose role is `global` (the same peer single sign-on delegates to). Without either, payments are off
 * here (`payments.disabled`). docs/payments.md#configuration
 */
export async function platformUrlOf(services: PaymentsAreaServices): Promise<string> {
  const configured = services.payments?.globalBaseUrl;
  if (configured) return configured;
  const peers = (await services.federation?.read.peers()) ?? [];
  const global = peers.find((p) => p.role === GLOBAL_ROLE && !p.blocked);
  if (!global)
    throw new DomainError(
      'payments.disabled',
      'unavailable',
      'no global instance is configured (GLOBAL_URL) or registered as a peer',
    );
  return global.baseUrl.replace(/\/+$/, '');
}
