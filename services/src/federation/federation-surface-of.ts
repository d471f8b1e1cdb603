import { DomainError } from '@tributary/domain';
import type { FederationSurfacePorts } from './ports/federation-surface.js';
import type { FederationOperationServices } from './federation-operation.js';

/** The federation-surface ports, or `federation.unavailable` where this instance was composed without them. */
export function federationSurfaceOf(services: FederationOperationServices): FederationSurfacePorts {
  if (!services.federationSurface)
    throw new DomainError('federation.unavailable', 'unavailable', 'federation is not configured here');
  return services.federationSurface;
}
