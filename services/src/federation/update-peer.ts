// PATCH /api/federation/peers: rotate a peer's key (the old one keeps verifying what it signed while
// valid) or shared secret, move its base URL, block or unblock it. One commit, so all or nothing.
import {
  conflict,
  decideUpdatePeer,
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

export const updatePeer = defineFederationOperation({
  name: 'svc.federation.update_peer',
  title: 'Update a peer',
  description:
    'Rotate a peer’s key or shared secret, change its base URL, or block/unblock it. A generated secret is shown once.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    peerId: uuidSchema,
    publicKey: publicKeySchema.optional().describe('the peer’s new key; the current one is retired now'),
    keyId: z.string().max(200).optional(),
    secret: sharedSecretSchema.optional(),
    rotateSecret: z.boolean().optional().describe('generate a new shared secret (shown once)'),
    baseUrl: baseUrlSchema.optional(),
    blocked: z.boolean().optional(),
    reason: z.string().max(500).optional().describe('why the peer is blocked'),
  }),
  output: peerOutput.extend({ changed: z.array(z.string()), secret: z.string().optional() }),
  async run(ctx, input) {
    const { services } = ctx;
    const fed = services.federation;
    if (input.secret !== undefined && input.rotateSecret)
      throw invalid('federation.secret_conflict', 'give a secret or ask for one, not both');
    const baseUrl = input.baseUrl === undefined ? undefined : normalizeBaseUrl(input.baseUrl);
    if (baseUrl) await fed.urls.checkPeerUrl(baseUrl);
    let key: { keyId: string; publicKey: string } | undefined;
    if (input.publicKey !== undefined) {
      const keyId = fed.keys.keyIdOf(input.publicKey);
      if (input.keyId !== undefined && input.keyId !== keyId)
        throw invalid('federation.key_id_mismatch', 'keyId does not belong to publicKey', { keyId });
      if (keyId === services.signer.keyId)
        throw invalid('federation.key_is_ours', 'that is this instance’s own key');
      const holder = await fed.read.peerByKeyId(keyId);
      if (holder && holder.peer.peerId !== input.peerId)
        throw conflict('federation.key_in_use', 'another peer is registered with that key');
      key = { keyId, publicKey: input.publicKey };
    }
    const generated = input.rotateSecret ? services.ids.secret(32) : undefined;
    const secret = input.secret ?? generated;
    const stream = peerStream(input.peerId);
    const commit = await ctx.commit([stream], (s) =>
      decideUpdatePeer(
        {
          key,
          secretHash: secret === undefined ? undefined : services.ids.sha256(`peer-secret:${secret}`),
          baseUrl,
          blocked:
            input.blocked === undefined ? undefined : input.blocked && { reason: input.reason ?? 'operator' },
          now: ctx.now.toISOString(),
        },
        s.get(stream) as PeerState,
      ),
    );
    const peer = await fed.read.peer(input.peerId);
    if (!peer) throw new Error('peer missing from its inline projection after commit');
    return { ...peer, changed: commit.events.map((e) => e.type), ...(generated && { secret: generated }) };
  },
});
