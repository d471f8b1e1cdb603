// What the federation area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext, type Requirement } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { FederationServices, FederationSurfaceServices } from './ports/index.js';

/** The area as code outside its operations sees it: the slices are absent where federation is not composed. */
export type FederationAreaServices = CoreServices &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AgentsServices &
  AccountsServices;

/** What its operations run on: the catalogue runs them only where the federation slice is composed. */
export type FederationOperationServices = FederationAreaServices & FederationServices;

/** What the public surface's helpers (query, discover, manifest, peer mutations) run on: both slices. */
export type FederationWithSurfaceServices = FederationOperationServices & FederationSurfaceServices;

export type FederationOperationContext = OperationContext<FederationOperationServices>;

/** Where federation is not composed, the area's operations answer `federation.unavailable` before they run. */
export const federationComposed: Requirement<'federation'> = {
  slices: ['federation'],
  code: 'federation.unavailable',
  message: 'federation is not configured here',
};

/** The same for the public surface's routes, which use the surface's ports as well. */
export const federationSurfaceComposed: Requirement<'federation' | 'federationSurface'> = {
  slices: ['federation', 'federationSurface'],
  code: 'federation.unavailable',
  message: 'federation is not configured here',
};

/** One of the federation area's catalogue entries, run on the services above. */
export const defineFederationOperation = areaOperations<FederationOperationServices>(federationComposed);

/** One that uses the public surface's ports too (following someone discovers them first). */
export const defineFederationSurfaceOperation =
  areaOperations<FederationWithSurfaceServices>(federationSurfaceComposed);

/** One that runs whether or not federation is composed (the feed reads this instance's own log). */
export const defineFederationAreaOperation = areaOperations<FederationAreaServices>();
