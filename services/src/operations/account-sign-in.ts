import {
  accountStream,
  decideStartSession,
  normalizeEmail,
  sessionStream,
  unauthenticated,
  type AccountState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { passwordHashOf, refuseWhileThrottled } from './account-password.js';
import { newSession, type NewSession } from './session-token.js';

export const signIn = defineOperation({
  name: 'svc.auth.sign_in',
  title: 'Sign in',
  description: 'Start a session with an email or handle and a password. Repeated failures are throttled.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({
    identifier: z.string().trim().min(1).max(254),
    password: z.string().min(1).max(200),
  }),
  async run(ctx, input): Promise<{ accountId: string; agentId: string; session: NewSession }> {
    const { services } = ctx;
    const identifier = input.identifier.includes('@')
      ? normalizeEmail(input.identifier)
      : input.identifier.toLowerCase();
    const throttleKey = `sign-in:${services.ids.sha256(identifier)}`;
    await refuseWhileThrottled(
      services.throttle,
      throttleKey,
      'too many failed sign-ins; wait before trying again',
    );

    const account = await services.read.accountByIdentifier(identifier);
    const matches = account
      ? await services.passwords.verify(
          input.password,
          await passwordHashOf(services.store, account.accountId),
        )
      : (await services.passwords.verifyDummy(input.password), false);
    if (!account || !matches) {
      await services.throttle.recordFailure(throttleKey);
      throw unauthenticated('auth.invalid_credentials', 'wrong email, handle or password');
    }
    await services.throttle.reset(throttleKey);
    const session = newSession(services, account.accountId);
    await ctx.commit(
      [accountStream(account.accountId), sessionStream(session.sessionId)],
      (states) =>
        decideStartSession(
          { ...session.record, passwordMatches: true },
          states.get(accountStream(account.accountId)) as AccountState,
        ),
      { actorId: account.agentId },
    );
    return { accountId: account.accountId, agentId: account.agentId, session };
  },
});
