import { DomainError } from '@tributary/domain';
import type { FederationSurfaceServices } from './ports/federation-surface.js';
import type { Services } from '../pipeline/services.js';

/** The federation-surface ports, or `federation.unavailable` where this instance was composed without them. */
export function federationSurfaceOf(services: Services): FederationSurfaceServices {
  if (!services.federationSurface)
    throw new DomainError('federation.unavailable', 'unavailable', 'federation is not configured here');
  return services.federationSurface;
}
