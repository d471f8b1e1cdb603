// POST /api/federation/mutations (peer-signed): a mutation envelope signed by the sending instance's key
// (Ed25519 over its RFC 8785 form without `sig`, like our events), on top of the request signature. The
// request signature is the principal; the envelope must be that same peer's, fresh, and new. It runs
// through the command pipeline as the peer's own agent (the one created when the peer was registered),
// for the operations of PEER_MUTATION_OPERATIONS only, with its receipt in the same transaction.
import {
  CLOCK_SKEW_SECONDS,
  conflict,
  decideRecordPeerMutation,
  forbidden,
  invalid,
  isDomainError,
  peerMutationStream,
  unauthenticated,
  uuidSchema,
  type PeerMutationState,
} from '@tributary/domain';
import { z } from 'zod';
import { getOperation } from '../catalogue.js';
import { execute } from '../pipeline/execute.js';
import type { Principal } from '../pipeline/principal.js';
import type { FederationWithSurfaceServices } from './federation-operation.js';

/**
 * What a peer may ask of us, as catalogue operations run as its own instance agent. Everything about the
 * peer relationship itself (keys, secret, base URL, blocking) stays with our operator.
 */
export const PEER_MUTATION_OPERATIONS: readonly string[] = ['svc.profile.update'];

const base64url = /^[A-Za-z0-9_-]+$/;
export const mutationEnvelopeSchema = z.strictObject({
  v: z.literal(1),
  id: uuidSchema,
  origin: z.string().min(1).max(200),
  keyId: z.string().min(1).max(200),
  operation: z.string().min(1).max(100),
  input: z.record(z.string(), z.json()),
  issuedAt: z.string().datetime({ offset: true }),
  nonce: z.string().regex(base64url).min(22).max(64),
  sig: z.string(),
});
export type MutationEnvelope = z.infer<typeof mutationEnvelopeSchema>;

interface MutationResult {
  mutationId: string;
  operation: string;
  result: unknown;
  /** The events the mutation wrote (its receipt included), with their log positions. */
  events: { id: string; type: string; stream: string; streamVersion: number }[];
}

export async function applyPeerMutation(
  services: FederationWithSurfaceServices,
  principal: Extract<Principal, { kind: 'peer' }>,
  text: string,
): Promise<MutationResult> {
  const { documents, read } = services.federationSurface;
  // 1. The bytes as received: strict JSON (no duplicate keys, canonical numbers), then the shape.
  const parsed = documents.parseStrict(text);
  const shape = mutationEnvelopeSchema.safeParse(parsed);
  if (!shape.success)
    throw invalid('federation.bad_mutation', 'not a mutation envelope (see docs/federation.md)', {
      issues: shape.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  const envelope = parsed as MutationEnvelope;
  // 2. The envelope's signer must be the peer whose request signature brought it.
  if (envelope.origin !== principal.peerId)
    throw forbidden('federation.origin_mismatch', 'the envelope’s origin is not the signing peer');
  const peer = await services.federation.read.peer(principal.peerId);
  const key = peer?.keys.find((k) => k.keyId === envelope.keyId);
  if (!peer || !key) throw unauthenticated('federation.unknown_key', 'that key is not the peer’s');
  const now = services.clock.now();
  if (key.validUntil && now.getTime() >= Date.parse(key.validUntil))
    throw unauthenticated('federation.key_retired', 'that key was rotated out; sign with the current one');
  // 3. Fresh: issued within the clock-skew window.
  if (Math.abs(now.getTime() - Date.parse(envelope.issuedAt)) > CLOCK_SKEW_SECONDS * 1000)
    throw unauthenticated(
      'federation.stale_mutation',
      `issuedAt must be within ${CLOCK_SKEW_SECONDS} s of now`,
      {
        serverTime: now.toISOString(),
      },
    );
  // 4. The peer's Ed25519 signature over the RFC 8785 form of everything but `sig`.
  const { sig, ...unsigned } = envelope;
  let verified = false;
  try {
    verified = documents.verify(unsigned, sig, key.publicKey);
  } catch (e) {
    if (!isDomainError(e)) throw e;
  }
  if (!verified)
    throw unauthenticated('federation.bad_mutation_signature', 'the mutation signature does not verify');
  // 5. Only what a peer may do.
  const op = PEER_MUTATION_OPERATIONS.includes(envelope.operation)
    ? getOperation(envelope.operation)
    : undefined;
  if (!op)
    throw forbidden('federation.operation_not_allowed', `a peer may not run ${envelope.operation}`, {
      allowed: PEER_MUTATION_OPERATIONS,
    });
  // 6. Once only: a mutation id (for ever) and a nonce (for ever) already applied are replays. The
  // receipt's own stream makes the id check hold under concurrency too.
  const seen = await read.mutationSeen(principal.peerId, envelope.id, envelope.nonce);
  if (seen.id) throw conflict('federation.replayed_mutation', 'that mutation was already applied');
  if (seen.nonce) throw conflict('federation.replayed_nonce', 'that nonce was already used by this peer');
  const receiptStream = peerMutationStream(principal.peerId, envelope.id);
  const { result, commit } = await execute(services, op, envelope.input, principal, 'http', {
    alongside: {
      streams: [receiptStream],
      decide: (states) => [
        decideRecordPeerMutation(
          {
            peerId: principal.peerId,
            mutationId: envelope.id,
            operation: envelope.operation,
            nonce: envelope.nonce,
            issuedAt: envelope.issuedAt,
            envelope: text,
          },
          states.get(receiptStream) as PeerMutationState,
        ),
      ],
    },
  });
  return {
    mutationId: envelope.id,
    operation: envelope.operation,
    result,
    events: (commit?.events ?? []).map((e) => ({
      id: e.id,
      type: e.type,
      stream: e.stream,
      streamVersion: e.streamVersion,
    })),
  };
}
