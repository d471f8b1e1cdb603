// The federation area's ports and reads: the peer registry, import, the stores, and the public surface.
export * from './federation.js';
export * from './federation-surface.js';

import type { FederationPorts } from './federation.js';
import type { FederationSurfacePorts } from './federation-surface.js';

/** Peer registry, import verification and the federation stores; composed only where something federates. */
export interface FederationServices {
  federation: FederationPorts;
}

/** Query, entity-status, discover, manifests and peer mutations; composed only where something federates. */
export interface FederationSurfaceServices {
  federationSurface: FederationSurfacePorts;
}
