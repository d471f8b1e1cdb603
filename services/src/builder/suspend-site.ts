import { decideSuspendSite, siteStream, type SiteState } from '@tributary/domain';
import { defineBuilderOperation } from './builder-operation.js';
import { operatorSite } from './operator-site.js';
import { suspendInput, suspensionOutput } from './schemas.js';

export const suspendSite = defineBuilderOperation({
  name: 'svc.builder.suspend_site',
  title: 'Suspend a site (operators)',
  description:
    "Suspend someone's site with a reason the owner sees: every address and domain of it answers 451 with the reason, and none of its content, until an operator lifts it. Name the site by siteId, or by targetAgentId for that owner's default site. Suspending again with another reason changes the reason.",
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: suspendInput,
  output: suspensionOutput,
  async run(ctx, input) {
    const site = await operatorSite(ctx.services, input);
    const stream = siteStream(site.siteId);
    await ctx.commit([stream], (s) =>
      decideSuspendSite({ reason: input.reason }, s.get(stream) as SiteState),
    );
    return { siteId: site.siteId, ownerAgentId: site.ownerAgentId, suspended: true, reason: input.reason };
  },
});
