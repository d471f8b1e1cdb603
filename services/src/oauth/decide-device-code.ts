// POST /api/mcp/device/approve: a signed-in person approves (as themselves or a persona) or denies the
// request a user code names. Scopes are checked against what this person may grant.
import {
  decideDeviceDecision,
  oauthDeviceStream,
  oauthError,
  scopeGrantable,
  type OAuthDeviceState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { loadStreamState } from './grant-family.js';

export const decideDeviceCode = defineOAuthOperation({
  name: 'svc.oauth.device.decide',
  title: 'Approve or deny a device',
  description: 'RFC 8628: the person at the verification page decides. Session only.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({
    deviceDigest: z.string().max(100),
    approve: z.boolean(),
    targetAgentId: targetAgentId.describe('the persona the device will act as'),
  }),
  async run(ctx, input) {
    const { principal, actor, services } = ctx;
    if (principal.kind !== 'session')
      throw oauthError('access_denied', 'only a signed-in person may approve');
    const stream = oauthDeviceStream(input.deviceDigest);
    if (input.approve) {
      const state = await loadStreamState<OAuthDeviceState>(ctx, stream);
      const isInstanceController = ctx.instance.controllers.includes(principal.accountId);
      for (const s of state.request?.scopes ?? [])
        if (!scopeGrantable(s, { isInstanceController }))
          throw oauthError('invalid_scope', `you may not grant ${s}`);
    }
    await ctx.commit([stream], (states) =>
      decideDeviceDecision(
        input.approve
          ? {
              approve: true,
              accountId: principal.accountId,
              agentId: principal.agentId,
              ...(actor.agentId !== principal.agentId && { personaId: actor.agentId }),
              familyId: services.ids.entityId(),
            }
          : { approve: false },
        states.get(stream) as OAuthDeviceState,
        ctx.now,
      ),
    );
    return { approved: input.approve };
  },
});
