// What the mail area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext, type Requirement } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { AssistantServices } from '../assistant/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { OAuthServices } from '../oauth/ports/index.js';
import type { SsoServices } from '../sso/ports.js';
import type { TokensServices } from '../tokens/ports/index.js';
import type { MailServices } from './ports.js';

/** The area as code outside its operations sees it: the slice is absent where mail is not composed. */
export type MailAreaServices = CoreServices &
  Partial<MailServices> &
  AccountsServices &
  AgentsServices &
  TokensServices &
  OAuthServices &
  Partial<SsoServices> &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AssistantServices;

/** What its operations run on: the catalogue runs them only where the slice is composed. */
export type MailOperationServices = MailAreaServices & MailServices;

export type MailOperationContext = OperationContext<MailOperationServices>;

/** Where mail is not composed, the area's operations answer `mail.unavailable` before they run. */
export const mailComposed: Requirement<'mail'> = {
  slices: ['mail'],
  code: 'mail.unavailable',
  message: 'mail is not composed here',
};

/** One of the mail area's catalogue entries, run on the services above. */
export const defineMailOperation = areaOperations<MailOperationServices>(mailComposed);

/** One that runs whether or not mail is composed (following a link already sent sends nothing). */
export const defineMailAreaOperation = areaOperations<MailAreaServices>();
