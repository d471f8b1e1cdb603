// Whether peer apps may find you in a user search (GET /api/federation/users/search,
// docs/federation.md#user-search). On by default; off, you never appear there.
import { accountStream, decideSetDiscoverable, forbidden, type AccountState } from '@tributary/domain';
import { z } from 'zod';
import { defineAccountsOperation } from './accounts-operation.js';

export const setDiscoverable = defineAccountsOperation({
  name: 'svc.account.set_discoverable',
  title: 'Opt in or out of user search',
  description:
    'Choose whether apps of peer instances may find you in a user search (your public profile: handle, name, ' +
    'bio, avatar). On by default; the same choice again writes nothing.',
  kind: 'command',
  scopes: ['svc.profile.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({ discoverable: z.boolean() }),
  output: z.object({ discoverable: z.boolean() }),
  async run(ctx, input) {
    const p = ctx.principal;
    if (p.kind !== 'session' && p.kind !== 'token')
      throw forbidden('account.required', 'only a person with an account makes this choice');
    const stream = accountStream(p.accountId);
    await ctx.commit([stream], (states) =>
      decideSetDiscoverable(p.accountId, input.discoverable, states.get(stream) as AccountState),
    );
    return { discoverable: input.discoverable };
  },
});
