import {
  bindingHolds,
  conflict,
  decideBindDomain,
  domainStream,
  uuidSchema,
  type DomainBindingState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { withClaimConflicts } from '../shared/claim-conflicts.js';
import { targetAgentId } from '../shared/schemas.js';
import {
  bindableDomain,
  bindingOutput,
  domainBindingOutput,
  providerNamed,
  repairDomain,
} from './custom-domains.js';
import { inputRepairsOutput } from './input-repairs.js';
import { defaultSiteId, resolveSite } from './resolve-site.js';

/** Bytes of randomness in a binding's challenge token (base64url: 32 characters). */
const CHALLENGE_TOKEN_BYTES = 24;

export const bindDomain = defineBuilderOperation({
  name: 'svc.builder.bind_domain',
  title: 'Connect a custom domain',
  description:
    'Binds a domain to a site (default: your default site) and answers the DNS records to create: a TXT record _tributary-challenge.<domain> holding the binding’s token, and a CNAME to the site host (a subdomain) or A/AAAA records (an apex). The binding is pending until a check finds them; only a verified domain is served. Binding it again to the same site changes nothing. What is typed is repaired first (https://www.Example.org/ is example.org: scheme, path, port, case and www. dropped, Unicode as punycode) and the answer says so (`typed`, `repairs`); www.<domain> is served as an alias that redirects to the domain.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('the site; defaults to your default site'),
    domain: z.string().max(300).describe('the domain, e.g. www.example.org (IDNs in punycode: xn--…)'),
    provider: z
      .string()
      .max(40)
      .default('manual')
      .describe('how the records get created; manual: you create them at your DNS host'),
  }),
  output: domainBindingOutput.extend({
    ...inputRepairsOutput,
    providerCreatedRecords: z.boolean().describe('the provider created the records through its API'),
    providerError: z.string().nullable().describe('what the provider answered when it could not'),
  }),
  async run(ctx, input) {
    const ports = ctx.services.builder.domains;
    const repaired = repairDomain(input.domain);
    const domain = bindableDomain(repaired.value, ports.settings);
    const provider = providerNamed(ports, input.provider);
    // Refused before the default site is created on demand, so a refusal writes nothing; the decider
    // refuses again at the append, against the stream itself.
    const held = await ctx.services.builder.read.domainBinding(domain);
    const siteWanted = input.siteId ?? defaultSiteId(ctx.services.ids, ctx.actor.agentId);
    if (
      held &&
      held.siteId !== siteWanted &&
      bindingHolds({ bound: true, ...held }, ctx.now, ports.settings.holdSeconds)
    )
      throw conflict('builder.domain_taken', `${domain} is bound to another site`, { domain });
    const site = await resolveSite(ctx, input.siteId);
    const stream = domainStream(domain);
    const committed = await withClaimConflicts(() =>
      ctx.commit([stream], (states) =>
        decideBindDomain(
          {
            domain,
            siteId: site.siteId,
            ownerAgentId: site.ownerAgentId,
            provider: provider.name,
            challengeToken: ctx.services.ids.secret(CHALLENGE_TOKEN_BYTES),
            now: ctx.now,
            holdSeconds: ports.settings.holdSeconds,
          },
          states.get(stream) as DomainBindingState,
        ),
      ),
    );
    const binding = await ctx.services.builder.read.domainBinding(domain);
    if (!binding) throw new Error('domain binding missing from its inline projection after commit');
    const out = await bindingOutput(ports, binding);
    let providerError: string | null = null;
    // An API provider creates the records of a new binding; a failure leaves the binding pending
    // with the records listed, as for `manual`.
    if (provider.createsRecords && committed.events.length > 0)
      await provider.createRecords(domain, out.records).catch((e: unknown) => {
        providerError = e instanceof Error ? e.message : String(e);
      });
    return {
      ...out,
      typed: input.domain,
      repairs: repaired.repairs,
      providerCreatedRecords:
        provider.createsRecords && committed.events.length > 0 && providerError === null,
      providerError,
    };
  },
});
