import { decideUnsuspendSite, siteStream, type SiteState } from '@tributary/domain';
import { defineBuilderOperation } from './builder-operation.js';
import { operatorSite } from './operator-site.js';
import { unsuspendInput, suspensionOutput } from './schemas.js';

export const unsuspendSite = defineBuilderOperation({
  name: 'svc.builder.unsuspend_site',
  title: 'Lift a site suspension (operators)',
  description:
    'Lift the suspension of a site: it serves its publication again at once. Only an operator can; the owner cannot. Lifting a site that is not suspended changes nothing.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: unsuspendInput,
  output: suspensionOutput,
  async run(ctx, input) {
    const site = await operatorSite(ctx.services, input);
    const stream = siteStream(site.siteId);
    await ctx.commit([stream], (s) => decideUnsuspendSite(s.get(stream) as SiteState));
    return { siteId: site.siteId, ownerAgentId: site.ownerAgentId, suspended: false, reason: null };
  },
});
