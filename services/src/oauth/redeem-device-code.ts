// grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4–3.5): pending, denied, expired
// or — once — the tokens. Redemption appends at the stream's expected version: one poll wins.
import { decideRedeemDevice, oauthDeviceStream, oauthError, type OAuthDeviceState } from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { loadStreamState, mintTokens, requireClient } from './grant-family.js';

export const redeemDeviceCode = defineOAuthOperation({
  name: 'svc.oauth.token.device_code',
  title: 'Poll a device code',
  description: 'OAuth token endpoint, device_code grant.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  actsForAgent: false,
  input: z.object({ clientId: z.string().max(2000), deviceCode: z.string().max(200) }),
  async run(ctx, input) {
    const { services } = ctx;
    const client = await requireClient(ctx, input.clientId);
    const stream = oauthDeviceStream(services.ids.sha256(input.deviceCode));
    const state = await loadStreamState<OAuthDeviceState>(ctx, stream);
    if (state.request && state.request.clientId !== client.clientId)
      throw oauthError('invalid_grant', 'unknown device code');
    decideRedeemDevice(state, ctx.now); // throws the RFC 8628 answer unless approved
    const req = state.request!;
    const approval = state.approval!;
    const minted = await mintTokens(ctx, {
      familyId: approval.familyId,
      clientId: client.clientId,
      clientName: client.clientName,
      accountId: approval.accountId,
      agentId: approval.agentId,
      personaId: approval.personaId,
      scopes: req.scopes,
      resource: req.resource,
      grantedAt: ctx.now.toISOString(),
    });
    await ctx.commit(
      [stream, ...minted.streams],
      (states) => [
        ...decideRedeemDevice(states.get(stream) as OAuthDeviceState, ctx.now),
        ...minted.decide(states),
      ],
      { known: minted.known },
    );
    return minted.response;
  },
});
