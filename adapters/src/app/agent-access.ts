// Agent access mounted together: the MCP endpoint, the token routes, the OAuth endpoints and pages, and
// the discovery documents that point to them.
import { base64Length } from '@tributary/services';
import type { Express } from 'express';
import type { HttpContext } from '../http/index.js';
import { mcpRoutes, tokenRoutes, type StaticToken } from '../mcp/index.js';
import {
  connectedAppsRoutes,
  DEVICE_GRANT,
  deviceGrant,
  oauthConsentRoutes,
  oauthDeviceRoutes,
  oauthRegisterRoutes,
  oauthTokenRoutes,
} from '../oauth/index.js';
import { discoveryRoutes, oauthMetadataRoutes } from '../well-known/index.js';

interface AgentAccessOptions {
  maxBodyBytes: number;
  staticToken?: StaticToken | undefined;
  allowedOrigins?: readonly string[];
  /** RFC 8628 polling interval in seconds (OAUTH_DEVICE_INTERVAL_SECONDS). */
  deviceIntervalSeconds?: number;
}

/** The JSON-RPC envelope and the other arguments around an uploaded image's base64. */
const MCP_ENVELOPE_BYTES = 64 * 1024;

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
      // A tool call may carry an image as base64 (svc.builder.upload_media, svc.assistant.add_attachment):
      // room for the largest one the instance takes. The body is read only once the caller is authenticated.
      maxBodyBytes: Math.max(
        o.maxBodyBytes,
        base64Length(
          Math.max(
            ctx.services.builder.media.limits.maxBytes,
            ctx.services.assistantAttachments.processor.limits.maxBytes,
          ),
        ) + MCP_ENVELOPE_BYTES,
      ),
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
