import {
  decideGrantController,
  decideRevokeController,
  INSTANCE_STREAM,
  type InstanceState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAdminOperation } from './admin-operation.js';
import { accountOf } from './account-of.js';

export const moveController = defineAdminOperation({
  name: 'svc.admin.move_controller',
  title: 'Move the operator role',
  description: 'Hand the operator role from one account to another, in one step.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({ from: z.string().min(1).max(254), to: z.string().min(1).max(254) }),
  async run(ctx, input) {
    const from = await accountOf(ctx.services, input.from);
    const to = await accountOf(ctx.services, input.to);
    await ctx.commit([INSTANCE_STREAM], (s) => {
      const state = s.get(INSTANCE_STREAM) as InstanceState;
      const granted = decideGrantController(
        { accountId: to.accountId, agentId: to.agentId, reason: 'admin' },
        state,
      );
      // Revoke against the state after the grant, so moving the only controller is allowed.
      const after = {
        ...state,
        controllers: [...state.controllers, { accountId: to.accountId, agentId: to.agentId }],
      };
      return [...granted, ...decideRevokeController({ accountId: from.accountId }, after)];
    });
    return { from: from.accountId, to: to.accountId };
  },
});
