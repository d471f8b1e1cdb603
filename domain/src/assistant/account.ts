// The connected account's stream (`aaccount-<agentId>`, connectedAccountStream in streams.ts), its fold
// and deciders. Pure: times and ids arrive in the commands. The secrets are not here (account-events.ts).
import { conflict, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import { streamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AssistantAccountConnectedData } from './account-events.js';
import { connectedAccountStream } from './streams.js';

export interface AssistantAccountState {
  /** The account as connected, while it is. */
  account?: AssistantAccountConnectedData & { refreshedAt?: string };
  /** Sign-ins started and not ended (approved, denied or expired) yet, by id. */
  pending: Record<string, { provider: string; expiresAt: string }>;
}

export const initialAssistantAccountState = (): AssistantAccountState => ({ pending: {} });

export function evolveAssistantAccount(s: AssistantAccountState, e: StoredEventLike): AssistantAccountState {
  const d = e.data as Record<string, unknown>;
  const without = (id: unknown) => {
    const { [String(id)]: _gone, ...rest } = s.pending;
    return rest;
  };
  switch (e.type) {
    case 'assistant.account_sign_in_started':
      return {
        ...s,
        pending: {
          ...s.pending,
          [String(d.signInId)]: { provider: String(d.provider), expiresAt: String(d.expiresAt) },
        },
      };
    case 'assistant.account_sign_in_ended':
      return { ...s, pending: without(d.signInId) };
    case 'assistant.account_connected':
      return { account: e.data as AssistantAccountConnectedData, pending: without(d.signInId) };
    case 'assistant.account_refreshed':
      if (!s.account) return s;
      return {
        ...s,
        account: {
          ...s.account,
          expiresAt: d.expiresAt as string | undefined,
          refreshedAt: d.refreshedAt as string,
        },
      };
    case 'assistant.account_disconnected': {
      const { account: _gone, ...rest } = s;
      return rest;
    }
    default:
      return s;
  }
}

export const assistantAccountAggregates = [
  streamAggregate('aaccount-', { initial: initialAssistantAccountState, evolve: evolveAssistantAccount }),
];

export function decideStartSignIn(cmd: {
  agentId: string;
  signInId: string;
  provider: string;
  expiresAt: string;
}): NewEvent[] {
  return [
    {
      stream: connectedAccountStream(cmd.agentId),
      type: 'assistant.account_sign_in_started',
      data: { signInId: cmd.signInId, provider: cmd.provider, expiresAt: cmd.expiresAt },
    },
  ];
}

function requirePending(state: AssistantAccountState, signInId: string) {
  if (!state.pending[signInId])
    throw notFound('assistant.sign_in_not_found', 'no such sign-in pending for this agent');
}

export function decideEndSignIn(
  cmd: { agentId: string; signInId: string; outcome: 'denied' | 'expired' },
  state: AssistantAccountState,
): NewEvent[] {
  requirePending(state, cmd.signInId);
  return [
    {
      stream: connectedAccountStream(cmd.agentId),
      type: 'assistant.account_sign_in_ended',
      data: { signInId: cmd.signInId, outcome: cmd.outcome },
    },
  ];
}

/** A pending sign-in succeeded: the account is connected (replacing any account connected before). */
export function decideConnect(
  cmd: { agentId: string } & AssistantAccountConnectedData,
  state: AssistantAccountState,
): NewEvent[] {
  requirePending(state, cmd.signInId);
  const { agentId, ...data } = cmd;
  return [{ stream: connectedAccountStream(agentId), type: 'assistant.account_connected', data }];
}

function requireConnected(state: AssistantAccountState) {
  if (!state.account)
    throw notFound('assistant.account_not_connected', 'no external assistant account is connected');
}

export function decideRefresh(
  cmd: { agentId: string; expiresAt?: string; refreshedAt: string },
  state: AssistantAccountState,
): NewEvent[] {
  // A disconnect that won the race: the refreshed tokens were already thrown away.
  if (!state.account)
    throw conflict('assistant.account_reconnect_needed', 'the account was disconnected meanwhile');
  return [
    {
      stream: connectedAccountStream(cmd.agentId),
      type: 'assistant.account_refreshed',
      data: {
        ...(cmd.expiresAt !== undefined && { expiresAt: cmd.expiresAt }),
        refreshedAt: cmd.refreshedAt,
      },
    },
  ];
}

export function decideDisconnect(
  cmd: { agentId: string; revocation: 'revoked' | 'not_offered' | 'failed' },
  state: AssistantAccountState,
): NewEvent[] {
  requireConnected(state);
  return [
    {
      stream: connectedAccountStream(cmd.agentId),
      type: 'assistant.account_disconnected',
      data: { revocation: cmd.revocation },
    },
  ];
}

/** Throws `assistant.account_not_connected` unless an account is connected. */
export const assertAccountConnected = requireConnected;
