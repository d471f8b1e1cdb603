// What the sso area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext, type Requirement } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { AssistantServices } from '../assistant/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { SsoServices } from './ports.js';

/** The area as code outside its operations sees it: single sign-on is absent where it is not composed. */
export type SsoAreaServices = CoreServices &
  Partial<SsoServices> &
  AccountsServices &
  AgentsServices &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AssistantServices;

/** What its operations run on: the catalogue runs them only where sign-on and federation are composed. */
export type SsoOperationServices = SsoAreaServices &
  SsoServices &
  FederationServices &
  FederationSurfaceServices;

export type SsoOperationContext = OperationContext<SsoOperationServices>;

/** The context of another area's operation that may delegate to the global instance (sign-in, sign-up). */
export type SsoAreaContext = OperationContext<SsoAreaServices>;

/** Where single sign-on is not composed, the area's operations answer `federation.unavailable` before they run. */
export const ssoComposed: Requirement<'sso' | 'federation' | 'federationSurface'> = {
  slices: ['sso', 'federation', 'federationSurface'],
  code: 'federation.unavailable',
  message: 'single sign-on is not configured here',
};

/** One of the sso area's catalogue entries, run on the services above. */
export const defineSsoOperation = areaOperations<SsoOperationServices>(ssoComposed);
