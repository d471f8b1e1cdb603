// POST /api/autobot/codex/device: starts a device sign-in (RFC 8628 §3.1) at the external provider. The
// device code stays here, encrypted; the person gets the user code and where to enter it.
import { connectedAccountStream, decideStartSignIn } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { accountPorts } from './account-support.js';

export const startAccountSignIn = defineAssistantOperation({
  name: 'svc.assistant.account.start_sign_in',
  title: 'Start connecting an external assistant account',
  description:
    'Starts a device sign-in (RFC 8628) at the configured external assistant provider: answers the user code and the page to enter it on. Poll svc.assistant.account.poll_sign_in until it connects.',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  // The person signs in at the provider in their own browser: a session matter, not a tool's.
  enabledFor: [],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    signInId: z.string(),
    provider: z.string(),
    userCode: z.string(),
    verificationUri: z.string(),
    verificationUriComplete: z.string().nullable(),
    intervalSeconds: z.number(),
    expiresAt: z.string(),
  }),
  async run(ctx) {
    const { services } = ctx;
    const ports = accountPorts(services);
    const agentId = ctx.actor.agentId;
    const auth = await ports.provider.startDeviceAuthorization();
    const signInId = services.ids.entityId();
    const now = services.clock.now();
    const expiresAt = new Date(now.getTime() + auth.expiresInSeconds * 1000);
    await ports.vault.savePending({
      signInId,
      agentId,
      deviceCode: auth.deviceCode,
      intervalSeconds: auth.intervalSeconds,
      nextPollAt: new Date(now.getTime() + auth.intervalSeconds * 1000),
      expiresAt,
    });
    try {
      await ctx.commit([connectedAccountStream(agentId)], () =>
        decideStartSignIn({
          agentId,
          signInId,
          provider: ports.provider.name,
          expiresAt: expiresAt.toISOString(),
        }),
      );
    } catch (e) {
      await ports.vault.deletePending(signInId).catch(() => undefined);
      throw e;
    }
    return {
      signInId,
      provider: ports.provider.name,
      userCode: auth.userCode,
      verificationUri: auth.verificationUri,
      verificationUriComplete: auth.verificationUriComplete ?? null,
      intervalSeconds: auth.intervalSeconds,
      expiresAt: expiresAt.toISOString(),
    };
  },
});
