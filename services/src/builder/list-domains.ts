import { uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { bindingOutput, domainBindingOutput, instanceAddresses } from './custom-domains.js';
import { resolveSite } from './resolve-site.js';

export const listDomains = defineBuilderOperation({
  name: 'svc.builder.list_domains',
  title: 'List custom domains',
  description:
    'Your custom domains (of every site, or of `siteId`), by name: each one’s state (pending, verified, failed), why it is stuck (record_missing, wrong_value, points_elsewhere, resolver_error, with what the last check found) and the DNS records it needs.',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, siteId: uuidSchema.optional() }),
  output: z.object({ domains: z.array(domainBindingOutput) }),
  async run(ctx, input) {
    const siteId = input.siteId === undefined ? undefined : (await resolveSite(ctx, input.siteId)).siteId;
    const ports = ctx.services.builder.domains;
    const bindings = await ctx.services.builder.read.domainBindings({
      ownerAgentId: ctx.actor.agentId,
      siteId,
    });
    const known = bindings.length > 0 ? instanceAddresses(ports) : undefined;
    return { domains: await Promise.all(bindings.map((b) => bindingOutput(ports, b, known))) };
  },
});
