// The instance aggregate (stream `instance`): who this instance is, its keys and its controllers.
import { conflict, invalid, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { InstanceEventData as EventData, InstanceRole } from './events.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

export const INSTANCE_STREAM = 'instance';

export interface InstanceState {
  initialized: boolean;
  instanceId?: string;
  role?: InstanceRole;
  name?: string;
  baseUrl?: string;
  primaryAgentId?: string;
  keys: { keyId: string; publicKey: string; validFrom: string }[];
  controllers: { accountId: string; agentId: string }[];
}

export const initialInstanceState = (): InstanceState => ({ initialized: false, keys: [], controllers: [] });

export function evolveInstance(state: InstanceState, event: StoredEventLike): InstanceState {
  switch (event.type) {
    case 'instance.initialized': {
      const d = event.data as EventData<'instance.initialized'>;
      return {
        ...state,
        initialized: true,
        instanceId: d.instanceId,
        role: d.role,
        name: d.name,
        baseUrl: d.baseUrl,
        primaryAgentId: d.primaryAgentId,
        keys: [...state.keys, d.signingKey],
      };
    }
    case 'instance.key_added': {
      const d = event.data as EventData<'instance.key_added'>;
      return { ...state, keys: [...state.keys, d] };
    }
    case 'instance.controller_granted': {
      const d = event.data as EventData<'instance.controller_granted'>;
      return {
        ...state,
        controllers: [...state.controllers, { accountId: d.accountId, agentId: d.agentId }],
      };
    }
    case 'instance.controller_revoked': {
      const d = event.data as EventData<'instance.controller_revoked'>;
      return { ...state, controllers: state.controllers.filter((c) => c.accountId !== d.accountId) };
    }
    default:
      return state;
  }
}

interface InitializeInstance {
  instanceId: string;
  role: InstanceRole;
  name: string;
  baseUrl: string;
  primaryAgentId: string;
  signingKey: { keyId: string; publicKey: string; validFrom: string };
}

/** First start: the instance and its primary agent come into being together. */
export function decideInitializeInstance(cmd: InitializeInstance, state: InstanceState): NewEvent[] {
  if (state.initialized)
    throw conflict('instance.already_initialized', 'this instance is already initialized');
  const kind = cmd.role;
  return [
    {
      stream: INSTANCE_STREAM,
      type: 'instance.initialized',
      data: {
        instanceId: cmd.instanceId,
        role: cmd.role,
        name: cmd.name,
        baseUrl: cmd.baseUrl,
        primaryAgentId: cmd.primaryAgentId,
        signingKey: { ...cmd.signingKey, algorithm: 'Ed25519' },
      },
    },
    {
      stream: `agent-${cmd.primaryAgentId}`,
      type: 'agent.created',
      data: { agentId: cmd.primaryAgentId, kind, name: cmd.name },
    },
  ];
}

export function decideGrantController(
  cmd: { accountId: string; agentId: string; reason: 'first_account' | 'admin' },
  state: InstanceState,
): NewEvent[] {
  if (!state.initialized) throw invalid('instance.not_initialized', 'the instance is not initialized yet');
  if (state.controllers.some((c) => c.accountId === cmd.accountId))
    throw conflict('instance.already_controller', 'that account already controls this instance');
  return [{ stream: INSTANCE_STREAM, type: 'instance.controller_granted', data: cmd }];
}

export function decideRevokeController(cmd: { accountId: string }, state: InstanceState): NewEvent[] {
  if (!state.controllers.some((c) => c.accountId === cmd.accountId))
    throw notFound('instance.not_controller', 'that account does not control this instance');
  if (state.controllers.length === 1)
    throw conflict(
      'instance.last_controller',
      'an instance keeps at least one controller; grant another first',
    );
  return [{ stream: INSTANCE_STREAM, type: 'instance.controller_revoked', data: cmd }];
}
