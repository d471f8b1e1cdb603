// DELETE /api/autobot/codex: disconnects the external-assistant account. The provider is asked to revoke
// the grant (RFC 7009: the refresh token, which takes the grant with it, then the access token) where a
// revocation endpoint is configured; then the ciphertext is deleted and the disconnection recorded. A
// provider that cannot be reached does not keep the account here: the answer says revocation `failed`.
import {
  assertAccountConnected,
  connectedAccountStream,
  decideDisconnect,
  isDomainError,
  type AssistantAccountState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import type { AccountTokens } from './ports/assistant-account.js';
import { assistantAccountState } from './account-support.js';

export const disconnectAccount = defineAssistantOperation({
  name: 'svc.assistant.account.disconnect',
  title: 'Disconnect the external assistant account',
  description:
    'Revokes the grant at the provider where it offers RFC 7009 revocation, forgets the tokens here and records the disconnection.',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    agentId: z.string(),
    disconnected: z.literal(true),
    revocation: z.enum(['revoked', 'not_offered', 'failed']),
  }),
  async run(ctx) {
    const { services } = ctx;
    const agentId = ctx.actor.agentId;
    // Refused before anything happens when nothing is connected.
    assertAccountConnected((await assistantAccountState(services, agentId)).state);
    const ports = services.assistantAccount;
    let tokens: AccountTokens | undefined;
    try {
      tokens = await ports?.vault.loadTokens(agentId);
    } catch (e) {
      // Unreadable with the current key: nothing to revoke with, but the row still goes.
      if (!isDomainError(e)) throw e;
    }
    let revocation: 'revoked' | 'not_offered' | 'failed' = 'not_offered';
    const provider = ports?.provider;
    if (provider?.revokes) {
      if (!tokens) revocation = 'failed';
      else
        try {
          if (tokens.refreshToken) await provider.revoke(tokens.refreshToken, 'refresh_token');
          await provider.revoke(tokens.accessToken, 'access_token');
          revocation = 'revoked';
        } catch (e) {
          if (!isDomainError(e)) throw e;
          revocation = 'failed';
        }
    }
    await ports?.vault.deleteTokens(agentId);
    const stream = connectedAccountStream(agentId);
    await ctx.commit([stream], (states) =>
      decideDisconnect({ agentId, revocation }, states.get(stream) as AssistantAccountState),
    );
    return { agentId, disconnected: true as const, revocation };
  },
});
