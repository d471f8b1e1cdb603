import { decideUnbindDomain, domainStream, uuidSchema, type DomainBindingState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { recordsFor } from './custom-domains.js';
import { ownBinding } from './find-binding.js';

export const unbindDomain = defineBuilderOperation({
  name: 'svc.builder.unbind_domain',
  title: 'Disconnect a custom domain',
  description:
    'Removes a custom domain from your site (the site that holds it, or `siteId`): it is no longer served, and any site may bind it again.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('the site; default: the one of yours that holds it'),
    domain: z.string().max(300),
  }),
  output: z.object({ domain: z.string(), siteId: z.string(), unbound: z.literal(true) }),
  async run(ctx, input) {
    const binding = await ownBinding(ctx, input);
    const stream = domainStream(binding.domain);
    await ctx.commit([stream], (states) =>
      decideUnbindDomain(binding.domain, binding.siteId, states.get(stream) as DomainBindingState),
    );
    const ports = ctx.services.builder.domains;
    const provider = ports.providers.find((p) => p.name === binding.provider);
    // What an API provider created goes with the binding; the unbinding stands whatever it answers.
    if (provider?.createsRecords)
      await provider
        .deleteRecords(binding.domain, await recordsFor(ports, binding.domain, binding.challengeToken))
        .catch(() => undefined);
    return { domain: binding.domain, siteId: binding.siteId, unbound: true as const };
  },
});
