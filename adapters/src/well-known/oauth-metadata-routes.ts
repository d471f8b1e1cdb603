// Discovery of the authorization server: RFC 8414 metadata and a static OIDC-style document. Every
// value comes from BASE_URL (configuration), never from the request's Host header.
import { OAUTH_GRANT_TYPES, supportedScopes } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { type HttpContext, CACHE_OAUTH_METADATA, publicDocument } from '../http/index.js';

/** Public documents any web client may read (no credentials involved). */
export const publicCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, MCP-Protocol-Version');
    res.setHeader('Access-Control-Max-Age', '600');
    return void res.status(204).end();
  }
  next();
};

function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/mcp/oauth/authorize`,
    token_endpoint: `${base}/api/mcp/oauth/token`,
    registration_endpoint: `${base}/api/mcp/oauth/register`,
    revocation_endpoint: `${base}/api/mcp/token/revoke`,
    device_authorization_endpoint: `${base}/api/mcp/device/code`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...OAUTH_GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: supportedScopes(),
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${base}/llms.txt`,
  };
}

export function oauthMetadataRoutes(ctx: HttpContext): Router {
  const r = Router();
  const base = ctx.baseUrl;
  const paths = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
  const doc = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_OAUTH_METADATA });
  r.options(paths, doc);
  r.get('/.well-known/oauth-authorization-server', doc, (_req, res) => {
    res.json(authorizationServerMetadata(base));
  });
  // OIDC-style: the same authorization server, described for clients that only know OIDC discovery.
  // No ID tokens are issued; access tokens are EdDSA JWTs (RFC 9068).
  r.get('/.well-known/openid-configuration', doc, (_req, res) => {
    res.json({
      ...authorizationServerMetadata(base),
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['EdDSA'],
      claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'jti'],
    });
  });
  return r;
}
