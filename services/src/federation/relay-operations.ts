// The operator's side of relaying (docs/federation.md#relay): which origins this instance takes relayed
// events from, and pinning an origin's key by hand (when its manifest cannot announce it under the key
// pinned before, or to pin before the first relayed event arrives).
import {
  invalid,
  RELAY_FOLLOW_MODES,
  RELAY_FOLLOWING_STREAM,
  relayFollowingToTell,
  relayFollowingSchema,
  relayOriginStream,
  type OriginKeysLearnedData,
} from '@tributary/domain';
import { z } from 'zod';
import { tellRelaysFollowing } from './relay.js';
import { baseUrlSchema, normalizeBaseUrl, publicKeySchema } from './peer-schemas.js';
import { defineFederationOperation } from './federation-operation.js';

const followingOutput = z.object({
  mode: z.enum(RELAY_FOLLOW_MODES),
  origins: z.array(z.string()),
  relays: z.array(z.string()).describe('the relays (peers of role global) told of the choice'),
});

export const setRelayFollowing = defineFederationOperation({
  name: 'svc.federation.set_relay_following',
  title: 'Choose the origins taken through the relay',
  description:
    'Which instances’ events this instance takes from the global instance: all, a list of instance ids, or people (the instances whose agents someone here follows, kept up to date as they follow and unfollow). The relay is told, so it delivers only those.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: relayFollowingSchema,
  output: followingOutput,
  async run(ctx, input) {
    const fed = ctx.services.federation;
    const origins = [...new Set(input.origins)];
    if (input.mode !== 'list' && origins.length > 0)
      throw invalid('input.invalid', 'origins are listed only with mode list');
    const following = { mode: input.mode, origins };
    // The relays first: if one does not take the choice, nothing is recorded here and the call can be
    // repeated (telling a relay twice changes nothing).
    const told = relayFollowingToTell(
      following,
      following.mode === 'people' ? await fed.read.followedOrigins() : [],
    );
    const relays = await tellRelaysFollowing(ctx.services, told);
    const current = await fed.read.relayFollowing();
    const same =
      current.following.mode === following.mode &&
      current.following.origins.join('\n') === following.origins.join('\n');
    if (!same || current.version === 0)
      await ctx.commit(
        [RELAY_FOLLOWING_STREAM],
        () => [{ stream: RELAY_FOLLOWING_STREAM, type: 'federation.relay_following_set', data: following }],
        { known: new Map([[RELAY_FOLLOWING_STREAM, { state: null, version: current.version }]]) },
      );
    return { ...following, relays };
  },
});

export const pinOriginKey = defineFederationOperation({
  name: 'svc.federation.pin_origin_key',
  title: 'Pin an origin’s key',
  description:
    'Pin the key of an instance known only through the relay (confirmed with its operator out of band): relayed events it signs are then believed; a key pinned before for it is retired now.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    origin: z.string().uuid(),
    publicKey: publicKeySchema,
    keyId: z.string().max(200).optional(),
    baseUrl: baseUrlSchema.optional().describe('where the origin answers (its manifest says so)'),
    name: z.string().max(200).optional(),
  }),
  output: z.object({ origin: z.string(), keyId: z.string(), retired: z.array(z.string()) }),
  async run(ctx, input) {
    const fed = ctx.services.federation;
    const keyId = fed.keys.keyIdOf(input.publicKey);
    if (input.keyId !== undefined && input.keyId !== keyId)
      throw invalid('federation.key_id_mismatch', 'keyId does not belong to publicKey', { keyId });
    if (keyId === ctx.services.signer.keyId)
      throw invalid('federation.key_is_ours', 'that is this instance’s own key');
    if (await fed.read.peer(input.origin))
      throw invalid(
        'federation.bad_public_key',
        'that origin is a registered peer: rotate its key with update_peer',
      );
    const view = await fed.read.relayOrigin(input.origin);
    const baseUrl = input.baseUrl !== undefined ? normalizeBaseUrl(input.baseUrl) : view?.baseUrl;
    if (!baseUrl) throw invalid('input.invalid', 'baseUrl is needed for an origin not known here yet');
    const now = ctx.now.toISOString();
    const retired = (view?.keys ?? []).filter((k) => k.keyId !== keyId && k.validUntil === null);
    const data: OriginKeysLearnedData = {
      origin: input.origin,
      name: input.name ?? view?.name ?? input.origin,
      role: (view?.role ?? 'person') as OriginKeysLearnedData['role'],
      baseUrl,
      keys: [
        ...retired.map((k) => ({
          keyId: k.keyId,
          publicKey: k.publicKey,
          validFrom: k.validFrom,
          validUntil: now,
        })),
        { keyId, publicKey: input.publicKey, validFrom: now, validUntil: null },
      ],
      source: 'operator',
    };
    const stream = relayOriginStream(input.origin);
    await ctx.commit([stream], () => [{ stream, type: 'federation.origin_keys_learned', data }], {
      known: new Map([[stream, { state: null, version: view?.version ?? 0 }]]),
    });
    return { origin: input.origin, keyId, retired: retired.map((k) => k.keyId) };
  },
});
