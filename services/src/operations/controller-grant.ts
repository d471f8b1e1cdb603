import {
  decideGrantController,
  decideRevokeController,
  INSTANCE_STREAM,
  normalizeEmail,
  notFound,
  type InstanceState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import type { Services } from '../pipeline/services.js';

async function accountOf(services: Services, identifier: string) {
  const id = identifier.includes('@') ? normalizeEmail(identifier) : identifier;
  const account = (await services.read.accountById(id)) ?? (await services.read.accountByIdentifier(id));
  if (!account) throw notFound('account.not_found', 'no account with that id, email or handle');
  return account;
}

export const grantController = defineOperation({
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

export const moveController = defineOperation({
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
