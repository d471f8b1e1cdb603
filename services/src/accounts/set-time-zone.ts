// The time zone a person's pages write times in (docs/web.md#times), kept on the account so that every
// device they sign in on shows the same clock. Null gives the choice back to each browser's own zone.
import { accountStream, decideSetTimeZone, forbidden, type AccountState } from '@tributary/domain';
import { z } from 'zod';
import { defineAccountsOperation } from './accounts-operation.js';

export const setTimeZone = defineAccountsOperation({
  name: 'svc.account.set_time_zone',
  title: 'Choose the time zone of your pages',
  description:
    'Choose the time zone your pages show times in, on every device you sign in on: an IANA name such as ' +
    '"Europe/Paris" (one of Intl.supportedValuesOf("timeZone"), or "UTC"), or null for each browser’s own ' +
    'zone again. A zone not in that list is refused with account.time_zone_unknown; the same choice again ' +
    'writes nothing.',
  kind: 'command',
  scopes: ['svc.profile.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({ timeZone: z.string().max(200).nullable() }),
  output: z.object({ timeZone: z.string().nullable() }),
  async run(ctx, input) {
    const p = ctx.principal;
    if (p.kind !== 'session' && p.kind !== 'token')
      throw forbidden('account.required', 'only a person with an account makes this choice');
    const stream = accountStream(p.accountId);
    await ctx.commit([stream], (states) =>
      decideSetTimeZone(p.accountId, input.timeZone, states.get(stream) as AccountState),
    );
    return { timeZone: input.timeZone };
  },
});
