// The peer aggregate (stream `peer-<peerId>`): an instance this one federates with, its keys (with
// validity windows, so a rotated-out key still verifies what it signed while valid), its shared secret
// (as a hash) and whether it is blocked.
import { conflict, invalid, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { InstanceRole } from '../instance/index.js';
import type { PeerKeyRotatedData, PeerRegisteredData } from './events.js';
import { streamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

export const peerStream = (peerId: string) => `peer-${peerId}`;

interface PeerKeyState {
  keyId: string;
  publicKey: string;
  validFrom: string;
  validUntil?: string;
  revokedAfter?: string;
}

export interface PeerState {
  exists: boolean;
  peerId?: string;
  agentId?: string;
  name?: string;
  role?: InstanceRole;
  baseUrl?: string;
  blocked: boolean;
  secretHash?: string;
  keys: PeerKeyState[];
}

const initialPeerState = (): PeerState => ({ exists: false, blocked: false, keys: [] });

/** The key currently in use (the one without an end). */
const currentPeerKey = (s: PeerState): PeerKeyState | undefined => s.keys.find((k) => !k.validUntil);

function evolvePeer(state: PeerState, event: StoredEventLike): PeerState {
  switch (event.type) {
    case 'peer.registered': {
      const d = event.data as PeerRegisteredData;
      return {
        exists: true,
        peerId: d.peerId,
        agentId: d.agentId,
        name: d.name,
        role: d.role,
        baseUrl: d.baseUrl,
        blocked: false,
        secretHash: d.secretHash,
        keys: [
          ...(d.previousKeys ?? []).map((k) => ({ ...k })),
          { keyId: d.keyId, publicKey: d.publicKey, validFrom: d.validFrom },
        ],
      };
    }
    case 'peer.key_rotated': {
      const d = event.data as PeerKeyRotatedData;
      return {
        ...state,
        keys: [
          ...state.keys.map((k) => (k.keyId === d.retiredKeyId ? { ...k, validUntil: d.retiredAt } : k)),
          { keyId: d.keyId, publicKey: d.publicKey, validFrom: d.validFrom },
        ],
      };
    }
    case 'peer.secret_rotated':
      return { ...state, secretHash: (event.data as { secretHash: string }).secretHash };
    case 'peer.base_url_changed':
      return { ...state, baseUrl: (event.data as { baseUrl: string }).baseUrl };
    case 'peer.blocked':
      return { ...state, blocked: true };
    case 'peer.unblocked':
      return { ...state, blocked: false };
    default:
      return state;
  }
}

export const peerStreams = streamAggregate('peer-', { initial: initialPeerState, evolve: evolvePeer });

interface RegisterPeer {
  peerId: string;
  agentId: string;
  name: string;
  baseUrl: string;
  role: InstanceRole;
  keyId: string;
  publicKey: string;
  secretHash: string;
  now: string;
  /** This instance's own id: an instance does not peer with itself. */
  selfId: string;
  /** The peer's earlier keys (from its signed manifest), oldest first; their ids already checked. */
  previousKeys?: PeerRegisteredData['previousKeys'];
}

export function decideRegisterPeer(cmd: RegisterPeer, state: PeerState): NewEvent[] {
  if (cmd.peerId === cmd.selfId)
    throw invalid('federation.peer_is_self', 'an instance cannot register itself as a peer');
  if (state.exists) throw conflict('federation.peer_exists', 'that peer is already registered');
  const { selfId: _self, now, previousKeys, ...rest } = cmd;
  const seen = new Set([cmd.keyId]);
  for (const k of previousKeys ?? []) {
    if (seen.has(k.keyId))
      throw invalid('federation.bad_key_history', `key ${k.keyId} is listed twice (or is the current key)`);
    seen.add(k.keyId);
    if ([k.validFrom, k.validUntil, k.revokedAfter ?? k.validFrom].some((t) => Number.isNaN(Date.parse(t))))
      throw invalid('federation.bad_key_history', `key ${k.keyId} names a time that is not RFC 3339`);
    if (Date.parse(k.validUntil) < Date.parse(k.validFrom))
      throw invalid('federation.bad_key_history', `key ${k.keyId} ends before it starts`);
  }
  return [
    {
      stream: peerStream(cmd.peerId),
      type: 'peer.registered',
      data: { ...rest, validFrom: now, ...(previousKeys?.length ? { previousKeys } : {}) },
    },
  ];
}

interface UpdatePeer {
  key?: { keyId: string; publicKey: string } | undefined;
  secretHash?: string | undefined;
  baseUrl?: string | undefined;
  blocked?: { reason: string } | false | undefined;
  now: string;
}

/** One PATCH: any of rotate key, rotate secret, move base URL, block or unblock; unchanged parts emit nothing. */
export function decideUpdatePeer(cmd: UpdatePeer, state: PeerState): NewEvent[] {
  if (!state.exists || !state.peerId) throw notFound('federation.peer_not_found', 'no such peer');
  const stream = peerStream(state.peerId);
  const events: NewEvent[] = [];
  if (cmd.key) {
    const current = currentPeerKey(state);
    if (state.keys.some((k) => k.keyId === cmd.key!.keyId && k !== current))
      throw conflict('federation.key_reused', 'a retired key cannot become current again');
    if (current?.keyId !== cmd.key.keyId)
      events.push({
        stream,
        type: 'peer.key_rotated',
        data: {
          keyId: cmd.key.keyId,
          publicKey: cmd.key.publicKey,
          validFrom: cmd.now,
          retiredKeyId: current?.keyId ?? '',
          retiredAt: cmd.now,
        },
      });
  }
  if (cmd.secretHash && cmd.secretHash !== state.secretHash)
    events.push({ stream, type: 'peer.secret_rotated', data: { secretHash: cmd.secretHash } });
  if (cmd.baseUrl && cmd.baseUrl !== state.baseUrl)
    events.push({ stream, type: 'peer.base_url_changed', data: { baseUrl: cmd.baseUrl } });
  if (cmd.blocked && !state.blocked)
    events.push({ stream, type: 'peer.blocked', data: { reason: cmd.blocked.reason } });
  if (cmd.blocked === false && state.blocked) events.push({ stream, type: 'peer.unblocked', data: {} });
  return events;
}
