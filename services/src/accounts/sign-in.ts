import {
  accountStream,
  decideStartSession,
  sessionStream,
  unauthenticated,
  type AccountState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAccountsOperation } from './accounts-operation.js';
import { passwordHashOf } from './password.js';
import {
  accountBudget,
  identifierBudget,
  normalizeIdentifier,
  refuseWhileOverBudget,
  restoreBudget,
  spendBudget,
} from '../shared/password-budget.js';
import { newSession, type NewSession } from './session-token.js';
import { delegatedSignIn, withAccountLink } from '../sso/index.js';

export const signIn = defineAccountsOperation({
  name: 'svc.auth.sign_in',
  title: 'Sign in',
  description:
    'Start a session with an email or handle and a password. Wrong passwords are throttled per identifier and per account, counted together with every other route that checks a password.',
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
    const identifier = normalizeIdentifier(input.identifier);
    const tooMany = 'too many failed sign-ins; wait before trying again';
    const throttleKeys = [identifierBudget(services, identifier)];
    await refuseWhileOverBudget(services, throttleKeys, tooMany);

    const account = await services.accounts.read.accountByIdentifier(identifier);
    // Failures also count per account, so its email and its handle share one allowance of guesses.
    if (account) {
      throttleKeys.push(accountBudget(account.accountId));
      await refuseWhileOverBudget(services, throttleKeys.slice(1), tooMany);
    }
    // A sovereign delegating to the global instance asks it first (docs/sso.md#delegation); only when it
    // cannot be reached does the local hash decide. Its yes names the local account: the one linked to
    // the person's global agent, which the identifier may not name.
    const delegated = await delegatedSignIn(ctx, identifier, input.password, account);
    let signedIn: Parameters<typeof withAccountLink>[1] | null = null;
    if (delegated.kind === 'yes') signedIn = delegated;
    else if (delegated.kind !== 'no') {
      if (!account) await services.accounts.passwords.verifyDummy(input.password);
      else if (
        await services.accounts.passwords.verify(
          input.password,
          await passwordHashOf(services.store, account.accountId),
        )
      )
        signedIn = account;
    }
    if (!signedIn) {
      await spendBudget(services, throttleKeys);
      throw unauthenticated('auth.invalid_credentials', 'wrong email, handle or password');
    }
    await restoreBudget(services, throttleKeys);
    const { accountId, agentId } = signedIn;
    const session = newSession(services, accountId);
    // An older account the global instance just vouched for is linked in the same commit.
    await withAccountLink(ctx, signedIn, (link) =>
      ctx.commit(
        [accountStream(accountId), sessionStream(session.sessionId), ...link.streams],
        (states) => [
          ...decideStartSession(
            { ...session.record, passwordMatches: true },
            states.get(accountStream(accountId)) as AccountState,
          ),
          ...link.decide(states),
        ],
        { actorId: agentId },
      ),
    );
    return { accountId, agentId, session };
  },
});
