import { DomainError } from '@tributary/domain';
import type { FederationServices } from './ports/federation.js';
import type { Services } from '../pipeline/services.js';

/** The federation ports, or `federation.unavailable` where this instance was composed without them. */
export function federationOf(services: Services): FederationServices {
  if (!services.federation)
    throw new DomainError('federation.unavailable', 'unavailable', 'federation is not configured here');
  return services.federation;
}
