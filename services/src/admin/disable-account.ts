// An operator disables an account (svc.admin.disable_account) or enables it again
// (svc.admin.enable_account): REST, MCP, the assistant and the /operator/accounts page run these. A
// disabled account cannot sign in, and disabling it ends every credential it held in the same commit
// (docs/agent-access.md#credential-change).
import {
  accountStream,
  decideSetAccountDisabled,
  INSTANCE_STREAM,
  type AccountState,
  type InstanceState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAdminOperation } from './admin-operation.js';
import { credentialEnding } from '../accounts/index.js';
import { accountOf } from './account-of.js';

const accountInput = z.string().trim().min(1).max(254).describe('account id, email or handle');

export const disableAccount = defineAdminOperation({
  name: 'svc.admin.disable_account',
  title: 'Disable an account (operators)',
  description:
    'The account can no longer sign in (403 account.disabled after the right password). In the same commit ' +
    'every credential it holds ends: its sessions, MCP tokens, OAuth access tokens and grants (refresh tokens), ' +
    'and its sign-on authority at peers. The answer says how many. An operator’s account cannot be disabled ' +
    '(409 account.is_operator). svc.admin.enable_account undoes it.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    account: accountInput,
    reason: z.string().trim().max(500).optional().describe('kept in the log with the change'),
  }),
  output: z.object({
    accountId: z.string(),
    disabled: z.literal(true),
    alreadyDisabled: z.boolean(),
    sessionsEnded: z.number(),
    tokensRevoked: z.number().describe('MCP tokens and OAuth access tokens revoked'),
    grantsRevoked: z.number().describe('OAuth grants (refresh-token families) revoked'),
  }),
  async run(ctx, input) {
    const account = await accountOf(ctx.services, input.account);
    const stream = accountStream(account.accountId);
    const ending = await credentialEnding(ctx.services, account, ctx.now);
    let alreadyDisabled = false;
    await ctx.commit([stream, INSTANCE_STREAM, ...ending.streams], (states) => {
      const instance = states.get(INSTANCE_STREAM) as InstanceState;
      const disabled = decideSetAccountDisabled(
        {
          accountId: account.accountId,
          disabled: true,
          reason: input.reason || undefined,
          isOperator: instance.controllers.some((c) => c.accountId === account.accountId),
        },
        states.get(stream) as AccountState,
      );
      // Already disabled: nothing left to end (a credential is never issued to a disabled account).
      alreadyDisabled = disabled.length === 0;
      return alreadyDisabled ? [] : [...disabled, ...ending.decide(states)];
    });
    return { accountId: account.accountId, disabled: true as const, alreadyDisabled, ...ending.ended };
  },
});

export const enableAccount = defineAdminOperation({
  name: 'svc.admin.enable_account',
  title: 'Enable a disabled account (operators)',
  description:
    'A disabled account signs in with its password again. Nothing it held before it was disabled comes back.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({ account: accountInput }),
  output: z.object({ accountId: z.string(), disabled: z.literal(false), alreadyEnabled: z.boolean() }),
  async run(ctx, input) {
    const account = await accountOf(ctx.services, input.account);
    const stream = accountStream(account.accountId);
    const { events } = await ctx.commit([stream], (states) =>
      decideSetAccountDisabled(
        { accountId: account.accountId, disabled: false, isOperator: false },
        states.get(stream) as AccountState,
      ),
    );
    return { accountId: account.accountId, disabled: false as const, alreadyEnabled: events.length === 0 };
  },
});
