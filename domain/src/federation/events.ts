// Events of federation: the peer registry and the local materialization of remote agents (and, in
// follows.ts, whom agents here follow).
// All private and never federable: whom this instance trusts, and how it names others' agents, is its
// own business. The events a peer sends us are its own (origin-signed) events, stored verbatim.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { INSTANCE_ROLES } from '../instance/index.js';
import { followsEvents } from './follows.js';
import { RELAY_EVENTS } from './relay.js';

const peerKey = {
  keyId: z.string().min(1),
  /** base64url of the raw 32-byte Ed25519 public key. */
  publicKey: z.string().min(43),
  /** When this instance started trusting the key; informational (the peer may have used it before). */
  validFrom: z.string(),
};

export const peerRegistered = defineEvent({
  type: 'peer.registered',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    peerId: z.string(),
    /** The local agent that stands for the peer instance: the agent a peer principal acts as. */
    agentId: z.string(),
    name: z.string(),
    baseUrl: httpUrlSchema(),
    role: z.enum(INSTANCE_ROLES),
    ...peerKey,
    /** sha256 (hex) of the shared secret agreed out of band; the secret itself is never stored. */
    secretHash: z.string(),
    /**
     * The peer's earlier keys, oldest first, as its signed manifest lists them (signed by the current key,
     * which vouches for them): they verify what the peer signed before it rotated, so its whole history
     * imports here even when we registered it after a rotation (docs/operations.md#rotating-the-signing-key).
     */
    previousKeys: z
      .array(
        z.strictObject({
          keyId: z.string().min(1),
          publicKey: z.string().min(43),
          validFrom: z.string(),
          validUntil: z.string(),
          revokedAfter: z.string().optional(),
        }),
      )
      .max(100)
      .optional(),
  }),
});

export const peerKeyRotated = defineEvent({
  type: 'peer.key_rotated',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    ...peerKey,
    /** The key it replaces: it still verifies events that occurred before `retiredAt`. */
    retiredKeyId: z.string(),
    retiredAt: z.string(),
  }),
});

export const peerSecretRotated = defineEvent({
  type: 'peer.secret_rotated',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ secretHash: z.string() }),
});

export const peerBaseUrlChanged = defineEvent({
  type: 'peer.base_url_changed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ baseUrl: httpUrlSchema() }),
});

export const peerBlocked = defineEvent({
  type: 'peer.blocked',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ reason: z.string() }),
});

export const peerUnblocked = defineEvent({
  type: 'peer.unblocked',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({}),
});

/**
 * A remote agent (`remoteAgentId` as named by `origin`) gets a local id here, on stream `agent-<agentId>`.
 * It starts as a private placeholder; the origin's own `agent.created` upgrades it in place. Recorded in
 * the log so a rebuild binds every remote id to the same local id.
 */
export const agentMaterialized = defineEvent({
  type: 'agent.materialized',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ agentId: z.string(), origin: z.string(), remoteAgentId: z.string() }),
});

/** At most this many bindings in one `agents.materialized` record; an import binding more writes several. */
export const BINDINGS_PER_RECORD = 500;

/** The stream of our records binding an origin's agents in bulk (`agents.materialized`). */
export const bindingsStream = (origin: string) => `bindings-${origin}`;

/**
 * Many remote agents of one `origin` get local ids here at once: what an import binds anew, in one
 * record per import (or several, `BINDINGS_PER_RECORD` each) on the origin's stream `bindings-<origin>`
 * instead of one `agent.materialized` per agent on each new agent's stream. Folded exactly as that many
 * `agent.materialized` in order. The local agents' own streams start empty (their first event is
 * whatever is later recorded about them here).
 */
export const agentsMaterialized = defineEvent({
  type: 'agents.materialized',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    origin: z.string(),
    bindings: z
      .array(z.strictObject({ agentId: z.string(), remoteAgentId: z.string() }))
      .min(1)
      .max(BINDINGS_PER_RECORD),
  }),
});

/**
 * A peer-signed mutation was applied here: recorded in the same transaction as the command's own events,
 * on a stream of its own per (peer, mutation id), so the same mutation can never apply twice. The
 * envelope is kept verbatim, so an auditor can re-verify that the peer asked for the change.
 */
export const peerMutationApplied = defineEvent({
  type: 'peer.mutation_applied',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    peerId: z.string(),
    mutationId: z.string(),
    operation: z.string(),
    nonce: z.string(),
    issuedAt: z.string(),
    /** The mutation envelope exactly as received (the peer's signature covers its RFC 8785 form). */
    envelope: z.string(),
  }),
});
const FEDERATION_SURFACE_EVENTS = [peerMutationApplied] as const satisfies readonly EventDefinition[];

const FEDERATION_EVENTS = [
  peerRegistered,
  peerKeyRotated,
  peerSecretRotated,
  peerBaseUrlChanged,
  peerBlocked,
  peerUnblocked,
  agentMaterialized,
  agentsMaterialized,
] as const satisfies readonly EventDefinition[];

export type PeerRegisteredData = z.infer<typeof peerRegistered.data>;
export type PeerKeyRotatedData = z.infer<typeof peerKeyRotated.data>;
export type AgentMaterializedData = z.infer<typeof agentMaterialized.data>;
export type AgentsMaterializedData = z.infer<typeof agentsMaterialized.data>;

/** Every event of the federation area. */
export const federationEvents = [
  ...FEDERATION_EVENTS,
  ...FEDERATION_SURFACE_EVENTS,
  ...RELAY_EVENTS,
  ...followsEvents,
] as const;
