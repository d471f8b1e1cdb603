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
  /** Every key the instance has had, oldest first; the current one has no `validUntil`. */
  keys: InstanceKey[];
  controllers: { accountId: string; agentId: string }[];
}

export interface InstanceKey {
  keyId: string;
  publicKey: string;
  validFrom: string;
  /** Set when a rotation retired it: it verifies what occurred before, and signs nothing new. */
  validUntil?: string;
  /** Set when revoked: what it signed that occurred at or after this time is not the instance's. */
  revokedAfter?: string;
}

/** The key the instance signs with now: the newest one no rotation has retired. */
export function currentInstanceKey(state: Pick<InstanceState, 'keys'>): InstanceKey | undefined {
  return state.keys.findLast((k) => k.validUntil === undefined);
}

/** The longest overlap a rotation may give the previous key (docs/operations.md#rotating-the-signing-key). */
export const MAX_KEY_OVERLAP_SECONDS = 30 * 24 * 3600;
/** The shortest: every process of the instance must have switched to the new key within it. */
export const MIN_KEY_OVERLAP_SECONDS = 60;

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
        keys: [
          ...state.keys,
          { keyId: d.signingKey.keyId, publicKey: d.signingKey.publicKey, validFrom: d.signingKey.validFrom },
        ],
      };
    }
    case 'instance.key_added': {
      const d = event.data as EventData<'instance.key_added'>;
      return { ...state, keys: [...state.keys, d] };
    }
    case 'instance.key_rotated': {
      const d = event.data as EventData<'instance.key_rotated'>;
      return {
        ...state,
        keys: [
          ...state.keys.map((k) =>
            k.keyId === d.previousKeyId ? { ...k, validUntil: d.previousValidUntil } : k,
          ),
          { keyId: d.keyId, publicKey: d.publicKey, validFrom: d.validFrom },
        ],
      };
    }
    case 'instance.key_revoked': {
      const d = event.data as EventData<'instance.key_revoked'>;
      return {
        ...state,
        keys: state.keys.map((k) => (k.keyId === d.keyId ? { ...k, revokedAfter: d.revokedAfter } : k)),
      };
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

/**
 * A new key signs from `now` on; the current one stays valid `overlapSeconds` longer, so processes that
 * have not switched yet and peers that have not heard of the new key yet keep working. The event is
 * signed with the current key (the pipeline seals with it), which is what lets a peer adopt the new one.
 */
export function decideRotateKey(
  cmd: { keyId: string; publicKey: string; now: Date; overlapSeconds: number },
  state: InstanceState,
): NewEvent[] {
  if (!state.initialized) throw invalid('instance.not_initialized', 'the instance is not initialized yet');
  if (
    !Number.isInteger(cmd.overlapSeconds) ||
    cmd.overlapSeconds < MIN_KEY_OVERLAP_SECONDS ||
    cmd.overlapSeconds > MAX_KEY_OVERLAP_SECONDS
  )
    throw invalid(
      'instance.bad_key_window',
      `the overlap is ${MIN_KEY_OVERLAP_SECONDS} to ${MAX_KEY_OVERLAP_SECONDS} seconds (30 days)`,
    );
  if (state.keys.some((k) => k.keyId === cmd.keyId))
    throw conflict('instance.key_exists', "that key is already one of this instance's keys");
  const current = currentInstanceKey(state);
  if (!current) throw invalid('instance.not_initialized', 'the instance has no current key');
  return [
    {
      stream: INSTANCE_STREAM,
      type: 'instance.key_rotated',
      data: {
        keyId: cmd.keyId,
        algorithm: 'Ed25519',
        publicKey: cmd.publicKey,
        validFrom: cmd.now.toISOString(),
        previousKeyId: current.keyId,
        previousValidUntil: new Date(cmd.now.getTime() + cmd.overlapSeconds * 1000).toISOString(),
      },
    },
  ];
}

/** A compromised key: what it signed that occurred at or after `revokedAfter` is disowned. */
export function decideRevokeKey(
  cmd: { keyId: string; revokedAfter: Date },
  state: InstanceState,
): NewEvent[] {
  if (!state.initialized) throw invalid('instance.not_initialized', 'the instance is not initialized yet');
  if (Number.isNaN(cmd.revokedAfter.getTime()))
    throw invalid('instance.bad_key_window', 'the revocation time is not a valid time');
  const key = state.keys.find((k) => k.keyId === cmd.keyId);
  if (!key) throw notFound('instance.key_unknown', 'no key of this instance has that key id');
  if (key === currentInstanceKey(state))
    throw conflict(
      'instance.key_is_current',
      'the current signing key cannot be revoked; rotate to a new key first (tributary keys rotate)',
    );
  if (key.revokedAfter !== undefined)
    throw conflict('instance.key_already_revoked', 'that key is already revoked');
  return [
    {
      stream: INSTANCE_STREAM,
      type: 'instance.key_revoked',
      data: { keyId: cmd.keyId, revokedAfter: cmd.revokedAfter.toISOString() },
    },
  ];
}
