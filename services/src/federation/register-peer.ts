// POST /api/federation/peers: the operator registers a peer instance (its id, base URL, role and
// Ed25519 key). The shared secret is agreed out of band: given here, or generated and shown once;
// only its hash is kept.
import {
  conflict,
  decideRegisterPeer,
  INSTANCE_ROLES,
  invalid,
  peerStream,
  uuidSchema,
  type PeerState,
} from '@tributary/domain';
import { z } from 'zod';
import {
  baseUrlSchema,
  normalizeBaseUrl,
  peerOutput,
  publicKeySchema,
  sharedSecretSchema,
} from './peer-schemas.js';
import { defineFederationOperation } from './federation-operation.js';

export const registerPeer = defineFederationOperation({
  name: 'svc.federation.register_peer',
  title: 'Register a peer',
  description:
    'Register a peer instance (id, base URL, role, Ed25519 public key). Returns the shared secret once if none was given.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    peerId: uuidSchema.describe('the peer’s instance id'),
    baseUrl: baseUrlSchema,
    role: z.enum(INSTANCE_ROLES),
    publicKey: publicKeySchema,
    keyId: z.string().max(200).optional().describe('must match the key id derived from publicKey'),
    name: z.string().trim().min(1).max(100).optional(),
    secret: sharedSecretSchema.optional(),
    previousKeys: z
      .array(
        z.strictObject({
          publicKey: publicKeySchema,
          keyId: z.string().max(200).describe('must match the key id derived from publicKey'),
          validFrom: z.string().max(40),
          validUntil: z.string().max(40),
          revokedAfter: z.string().max(40).optional(),
        }),
      )
      .max(100)
      .optional()
      .describe(
        "the peer's earlier keys, oldest first, as its signed manifest lists them: they verify its history from before a rotation",
      ),
  }),
  output: peerOutput.extend({ secret: z.string().optional() }),
  async run(ctx, input) {
    const { services, instance } = ctx;
    const fed = services.federation;
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    await fed.urls.checkPeerUrl(baseUrl);
    const keyId = fed.keys.keyIdOf(input.publicKey);
    if (input.keyId !== undefined && input.keyId !== keyId)
      throw invalid('federation.key_id_mismatch', 'keyId does not belong to publicKey', { keyId });
    if (keyId === services.signer.keyId)
      throw invalid('federation.key_is_ours', 'that is this instance’s own key');
    if (await fed.read.peerByKeyId(keyId))
      throw conflict('federation.key_in_use', 'another peer is registered with that key');
    for (const k of input.previousKeys ?? []) {
      if (fed.keys.keyIdOf(k.publicKey) !== k.keyId)
        throw invalid('federation.bad_key_history', `key id ${k.keyId} does not belong to its public key`, {
          keyId: k.keyId,
        });
      if (k.keyId === services.signer.keyId)
        throw invalid('federation.key_is_ours', 'that is this instance’s own key');
      if (await fed.read.peerByKeyId(k.keyId))
        throw conflict('federation.key_in_use', 'another peer is registered with that key', {
          keyId: k.keyId,
        });
    }
    const generated = input.secret === undefined ? services.ids.secret(32) : undefined;
    const secret = input.secret ?? generated!;
    const stream = peerStream(input.peerId);
    await ctx.commit([stream], (s) =>
      decideRegisterPeer(
        {
          peerId: input.peerId,
          agentId: services.ids.entityId(),
          name: input.name ?? new URL(baseUrl).host,
          baseUrl,
          role: input.role,
          keyId,
          publicKey: input.publicKey,
          secretHash: services.ids.sha256(`peer-secret:${secret}`),
          now: ctx.now.toISOString(),
          selfId: instance.instanceId,
          previousKeys: input.previousKeys,
        },
        s.get(stream) as PeerState,
      ),
    );
    const peer = await fed.read.peer(input.peerId);
    if (!peer) throw new Error('peer missing from its inline projection after commit');
    // The generated secret is shown here once and never again.
    return { ...peer, ...(generated && { secret: generated }) };
  },
});
