import { decideGrantController, INSTANCE_STREAM, type InstanceState } from '@tributary/domain';
import { z } from 'zod';
import { defineAdminOperation } from './admin-operation.js';
import { accountOf } from './account-of.js';

export const grantController = defineAdminOperation({
  name: 'svc.admin.grant_controller',
  title: 'Grant the operator role',
  description: 'Make another account a controller (operator) of this instance.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({ account: z.string().min(1).max(254).describe('account id, email or handle') }),
  async run(ctx, input) {
    const account = await accountOf(ctx.services, input.account);
    await ctx.commit([INSTANCE_STREAM], (s) =>
      decideGrantController(
        { accountId: account.accountId, agentId: account.agentId, reason: 'admin' },
        s.get(INSTANCE_STREAM) as InstanceState,
      ),
    );
    return { accountId: account.accountId, controller: true };
  },
});
