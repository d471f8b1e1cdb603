// Agent access: the MCP endpoint, the token endpoints and discovery, mounted together.
import type { Express } from 'express';
import type { HttpContext } from '../http/context.js';
import { discoveryRoutes } from '../well-known/mcp-discovery-routes.js';
import type { StaticToken } from './mcp-principal.js';
import { mcpRoutes } from './mcp-routes.js';
import { tokenRoutes } from './token-routes.js';
import { oauthMetadataRoutes } from '../well-known/oauth-metadata-routes.js';
import { oauthRegisterRoutes } from '../oauth/register-routes.js';
import { oauthConsentRoutes } from '../oauth/consent-routes.js';
import { oauthTokenRoutes } from '../oauth/token-routes.js';
import { connectedAppsRoutes } from '../web/connected-apps-routes.js';
import { DEVICE_GRANT, deviceGrant, oauthDeviceRoutes } from '../oauth/device-routes.js';

export { createJwtAccessTokens, looksLikeJwt, type JwtAccessTokenOptions } from './jwt-access-tokens.js';
export { staticTokenFrom, resolveMcpPrincipal, type StaticToken } from './mcp-principal.js';
export { createMcpServer, SERVER_INFO } from './mcp-server.js';
export { mcpRoutes, resourceMetadataUrl } from './mcp-routes.js';
export {
  createOAuthClientDirectory,
  CLIENT_METADATA_CACHE_SECONDS,
  type ClientDirectoryOptions,
} from '../oauth/client-directory.js';

export interface AgentAccessOptions {
  maxBodyBytes: number;
  staticToken?: StaticToken | undefined;
  allowedOrigins?: readonly string[];
  /** RFC 8628 polling interval in seconds (OAUTH_DEVICE_INTERVAL_SECONDS). */
  deviceIntervalSeconds?: number;
}

/** For `createHttpApp({ mount })`: every agent-access route. */
export function mountAgentAccess(app: Express, ctx: HttpContext, o: AgentAccessOptions) {
  // Before tokenRoutes: RFC 7009 form posts to the revocation endpoint are answered here.
  app.use(connectedAppsRoutes(ctx));
  app.use(tokenRoutes(ctx, { maxBodyBytes: o.maxBodyBytes }));
  app.use(
    mcpRoutes({
      services: ctx.services,
      baseUrl: ctx.baseUrl,
      cookie: ctx.cookie,
      maxBodyBytes: o.maxBodyBytes,
      staticToken: o.staticToken,
      ...(o.allowedOrigins && { allowedOrigins: o.allowedOrigins }),
    }),
  );
  app.use(discoveryRoutes(ctx, { staticTokenConfigured: !!o.staticToken }));
  app.use(oauthMetadataRoutes(ctx));
  app.use(oauthRegisterRoutes(ctx, { maxBodyBytes: o.maxBodyBytes }));
  app.use(oauthConsentRoutes(ctx));
  const device = { intervalSeconds: o.deviceIntervalSeconds ?? 5 };
  app.use(oauthTokenRoutes(ctx, { [DEVICE_GRANT]: deviceGrant(ctx, device) }));
  app.use(oauthDeviceRoutes(ctx, device));
}
