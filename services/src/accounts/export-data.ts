// The complete personal data set of the signed-in person, as JSON. Session only: data egress is
// never available to a bearer, whatever its scopes.
import { z } from 'zod';
import { paymentRecordsOf } from '../payments/index.js';
import { defineAccountsOperation } from './accounts-operation.js';

export const exportAccountData = defineAccountsOperation({
  name: 'svc.account.export_data',
  title: 'Export your data',
  description:
    'Everything this instance holds about you: account, agents and personas, tokens (never the tokens), sessions (never their secrets), your provenance log and your payment records (receipts, obligations, payouts, balances and connected accounts, for you and each persona).',
  kind: 'query',
  scopes: ['svc.account.export'],
  enabledFor: ['session'],
  actsForAgent: false,
  input: z.strictObject({}),
  async run(ctx) {
    const { principal, services } = ctx;
    if (principal.kind !== 'session') return { exportedAt: ctx.now.toISOString(), account: null };
    const read = {
      accounts: services.accounts.read,
      agents: services.agents.read,
      tokens: services.tokens.read,
    };
    const [account, self, tokens, sessions] = await Promise.all([
      read.accounts.accountById(principal.accountId),
      read.agents.agent(principal.agentId),
      read.tokens.tokensOf(principal.accountId),
      read.tokens.sessionsOf(principal.accountId),
    ]);
    const personas = await read.agents.personasOf(principal.agentId, { includeDeleted: true });
    const provenance: Awaited<ReturnType<typeof read.tokens.provenance>> = [];
    // Page through the whole log of this person's calls, newest first.
    for (let before: string | undefined; ;) {
      const page = await read.tokens.provenance({
        controllerAccountId: principal.accountId,
        limit: 1000,
        before,
      });
      provenance.push(...page);
      if (page.length < 1000) break;
      before = page[page.length - 1]!.entryId;
    }
    const payments = await paymentRecordsOf(services, [principal.agentId, ...personas.map((p) => p.agentId)]);
    return {
      exportedAt: ctx.now.toISOString(),
      instance: { instanceId: ctx.instance.instanceId, baseUrl: ctx.instance.baseUrl },
      account,
      agents: { self, personas },
      tokens,
      sessions,
      provenance,
      payments,
    };
  },
});
