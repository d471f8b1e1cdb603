// The OAuth area's ports and reads, filled in infra/src/compose/compose-oauth.ts.
import type { DeviceFlowThrottles } from '../../ports/runtime.js';
import type { OAuthClientDirectory } from './oauth-client-directory.js';
import type { OAuthReadModels } from './oauth-read-models.js';

export * from './oauth-client-directory.js';
export * from './oauth-read-models.js';

/** The OAuth area's ports. */
export interface OAuthPorts {
  read: OAuthReadModels;
  /** OAuth clients: registered ones, and Client ID Metadata Documents (fetched, checked, cached). */
  clients: OAuthClientDirectory;
  /** Device-flow pacing and wrong-code limits, in the database so every process agrees. */
  deviceFlow: DeviceFlowThrottles;
}

/** OAuth lifetimes in seconds (OAUTH_*_SECONDS). */
export interface OAuthLifetimes {
  codeSeconds: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** A refresh-token family's whole life from consent; rotation does not extend it. */
  refreshAbsoluteSeconds: number;
  deviceCodeSeconds: number;
}

/** What the OAuth area adds to the core services: its ports and its lifetimes. */
export interface OAuthServices {
  oauth: OAuthPorts;
  config: { oauth: OAuthLifetimes };
}
