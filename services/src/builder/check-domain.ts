import { decideDomainCheck, domainStream, uuidSchema, type DomainBindingState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { bindingOutput, checkDomainRecords, domainBindingOutput } from './custom-domains.js';
import { ownBinding } from './find-binding.js';

export const checkDomain = defineBuilderOperation({
  name: 'svc.builder.check_domain',
  title: 'Check a custom domain now',
  description:
    'Looks the domain’s DNS records up now and answers its state: verified (served), or failed with the reason (record_missing, wrong_value, points_elsewhere; resolver_error when our resolver did not answer). Only a change of state is recorded.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional(),
    domain: z.string().max(300),
  }),
  output: domainBindingOutput,
  async run(ctx, input) {
    const binding = await ownBinding(ctx, input);
    const ports = ctx.services.builder.domains;
    const outcome = await checkDomainRecords(ports, binding.domain, binding.challengeToken);
    const stream = domainStream(binding.domain);
    const checkedAt = ctx.services.clock.now();
    await ctx.commit([stream], (states) =>
      decideDomainCheck(states.get(stream) as DomainBindingState, outcome, checkedAt, binding.challengeToken),
    );
    const now = await ctx.services.builder.read.domainBinding(binding.domain);
    const out = await bindingOutput(ports, now ?? binding);
    // The check ran now even when it changed nothing the log records.
    return { ...out, checkedAt: checkedAt.toISOString() };
  },
});
