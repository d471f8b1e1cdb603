// POST /api/autobot/codex/device/poll: advances a device sign-in (RFC 8628 §3.4–3.5). The provider is
// asked at most once per interval: a poll sooner than that answers `pending` without calling it, and a
// `slow_down` from the provider adds 5 s to the interval (§3.5). Pending and slow_down are answers (200,
// with a stable `code`); denied and expired end the sign-in and are errors with codes; approval stores
// the tokens encrypted and connects the account.
import {
  connectedAccountStream,
  decideConnect,
  decideEndSignIn,
  forbidden,
  invalid,
  notFound,
  type AssistantAccountState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation, type AssistantOperationContext } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import {
  accountOutput,
  accountPorts,
  accountView,
  assistantAccountState,
  expiryOf,
} from './account-support.js';

/** RFC 8628 §3.5: slow_down adds 5 seconds to the interval, for this and every later poll. */
export const SLOW_DOWN_SECONDS = 5;

export const pollAccountSignIn = defineAssistantOperation({
  name: 'svc.assistant.account.poll_sign_in',
  title: 'Check on connecting an external assistant account',
  description:
    'Polls a device sign-in started with svc.assistant.account.start_sign_in: `pending` (authorization_pending), `slow_down` (wait the longer interval), or `connected`; refused and expired sign-ins are errors.',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  enabledFor: [],
  input: z.strictObject({ targetAgentId, signInId: z.string().uuid() }),
  output: z.object({
    status: z.enum(['pending', 'slow_down', 'connected']),
    /** RFC 8628's name for the answer: authorization_pending, slow_down, or null once connected. */
    code: z.enum(['authorization_pending', 'slow_down']).nullable(),
    /** Whether the provider was asked this time (not when polled sooner than the interval). */
    providerPolled: z.boolean(),
    intervalSeconds: z.number(),
    /** Poll again no sooner than this. */
    nextPollAt: z.string().nullable(),
    account: accountOutput.nullable(),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    const ports = accountPorts(services);
    const agentId = ctx.actor.agentId;
    const pending = await ports.vault.loadPending(agentId, input.signInId);
    if (!pending) throw notFound('assistant.sign_in_not_found', 'no such sign-in pending for this agent');
    const now = services.clock.now();
    if (now >= pending.expiresAt) return end(ctx, pending.signInId, 'expired');
    const waiting = (status: 'pending' | 'slow_down', polled: boolean, interval: number, next: Date) => ({
      status,
      code: status === 'pending' ? ('authorization_pending' as const) : ('slow_down' as const),
      providerPolled: polled,
      intervalSeconds: interval,
      nextPollAt: next.toISOString(),
      account: null,
    });
    if (now < pending.nextPollAt)
      return waiting('pending', false, pending.intervalSeconds, pending.nextPollAt);

    const answer = await ports.provider.pollDeviceToken(pending.deviceCode);
    switch (answer.kind) {
      case 'pending':
      case 'slow_down': {
        const interval = pending.intervalSeconds + (answer.kind === 'slow_down' ? SLOW_DOWN_SECONDS : 0);
        const next = new Date(now.getTime() + interval * 1000);
        await ports.vault.updatePending(pending.signInId, { intervalSeconds: interval, nextPollAt: next });
        return waiting(answer.kind, true, interval, next);
      }
      case 'denied':
      case 'expired':
        return end(ctx, pending.signInId, answer.kind);
      case 'tokens': {
        const t = answer.tokens;
        const accessExpiresAt = expiryOf(now, t.expiresInSeconds);
        const before = await ports.vault.loadTokens(agentId).catch(() => undefined);
        await ports.vault.saveTokens(agentId, {
          accessToken: t.accessToken,
          refreshToken: t.refreshToken,
          accessExpiresAt,
        });
        await ports.vault.deletePending(pending.signInId);
        const stream = connectedAccountStream(agentId);
        try {
          await ctx.commit([stream], (states) =>
            decideConnect(
              {
                agentId,
                signInId: pending.signInId,
                provider: ports.provider.name,
                scopes: [...new Set(t.scopes)].sort(),
                ...(accessExpiresAt && { expiresAt: accessExpiresAt.toISOString() }),
                connectedAt: now.toISOString(),
              },
              states.get(stream) as AssistantAccountState,
            ),
          );
        } catch (e) {
          // Not recorded as connected: the new tokens are not kept (nor left working at the provider).
          await ports.vault.deleteTokens(agentId).catch(() => undefined);
          await revokeQuietly(
            ctx,
            t.refreshToken ?? t.accessToken,
            t.refreshToken ? 'refresh_token' : 'access_token',
          );
          throw e;
        }
        // The account this replaced: its grant is no use to anyone now.
        if (before && before.accessToken !== t.accessToken)
          await revokeQuietly(
            ctx,
            before.refreshToken ?? before.accessToken,
            before.refreshToken ? 'refresh_token' : 'access_token',
          );
        const { state } = await assistantAccountState(services, agentId);
        return {
          status: 'connected' as const,
          code: null,
          providerPolled: true,
          intervalSeconds: pending.intervalSeconds,
          nextPollAt: null,
          account: accountView(services, agentId, state, now),
        };
      }
    }
  },
});

async function revokeQuietly(
  ctx: AssistantOperationContext,
  token: string,
  hint: 'access_token' | 'refresh_token',
) {
  const provider = ctx.services.assistantAccount?.provider;
  if (provider?.revokes) await provider.revoke(token, hint).catch(() => undefined);
}

/** The sign-in is over without an account: forget the device code, record why, answer the code. */
async function end(
  ctx: AssistantOperationContext,
  signInId: string,
  outcome: 'denied' | 'expired',
): Promise<never> {
  const ports = accountPorts(ctx.services);
  const agentId = ctx.actor.agentId;
  await ports.vault.deletePending(signInId);
  const stream = connectedAccountStream(agentId);
  await ctx.commit([stream], (states) =>
    decideEndSignIn({ agentId, signInId, outcome }, states.get(stream) as AssistantAccountState),
  );
  if (outcome === 'denied')
    throw forbidden('assistant.sign_in_denied', 'the sign-in was refused at the provider');
  throw invalid('assistant.sign_in_expired', 'the sign-in ran out before it was approved; start again');
}
