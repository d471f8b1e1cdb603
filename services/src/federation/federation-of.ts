import { DomainError } from '@tributary/domain';
import type { FederationPorts } from './ports/federation.js';
import type { FederationOperationServices } from './federation-operation.js';

/** The federation ports, or `federation.unavailable` where this instance was composed without them. */
export function federationOf(services: FederationOperationServices): FederationPorts {
  if (!services.federation)
    throw new DomainError('federation.unavailable', 'unavailable', 'federation is not configured here');
  return services.federation;
}
