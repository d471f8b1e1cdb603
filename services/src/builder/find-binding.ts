import type { BuilderOperationContext } from './builder-operation.js';
import type { DomainBindingView } from './ports/builder-read-models.js';
import { domainNotBound } from '@tributary/domain';
import { boundName } from './custom-domains.js';
import { resolveSite } from './resolve-site.js';

/**
 * The acting owner's binding of `domain`: on `siteId` when given (another owner's site is
 * builder.site_not_found), else on whichever of the owner's sites holds it. A domain bound elsewhere
 * or not at all is builder.domain_not_found, the same answer, so nobody learns who holds a name.
 */
export async function ownBinding(
  ctx: BuilderOperationContext,
  input: { domain: string; siteId?: string | undefined },
): Promise<DomainBindingView> {
  const domain = boundName(input.domain);
  const siteId = input.siteId === undefined ? undefined : (await resolveSite(ctx, input.siteId)).siteId;
  const binding = await ctx.services.builder.read.domainBinding(domain);
  if (
    !binding ||
    binding.ownerAgentId !== ctx.actor.agentId ||
    (siteId !== undefined && binding.siteId !== siteId)
  )
    throw domainNotBound(domain);
  return binding;
}
