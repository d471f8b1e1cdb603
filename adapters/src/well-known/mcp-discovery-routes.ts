// Discovery for agents: /.well-known/mcp (where and how to connect, and which tools exist),
// /.well-known/oauth-protected-resource (RFC 9728) and /llms.txt.
// All public; tool lists here are the catalogue's, not any caller's (tools/list filters per caller).
import { mcpTools, supportedScopes } from '@tributary/services';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { Router } from 'express';
import { type HttpContext, CACHE_DOCUMENT, CACHE_OAUTH_METADATA, publicDocument } from '../http/index.js';
import { resourceMetadataUrl } from '../mcp/index.js';

export function discoveryRoutes(ctx: HttpContext, o: { staticTokenConfigured: boolean }): Router {
  const r = Router();
  const base = ctx.baseUrl;
  const endpoint = `${base}/api/mcp`;
  const tools = () =>
    mcpTools().map((op) => ({
      name: op.name,
      title: op.title,
      description: op.description,
      enabledFor: op.enabledFor,
      scopes: op.scopes,
      readOnly: op.kind === 'query',
    }));
  const protectedResource = () => ({
    resource: endpoint,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: supportedScopes(),
    resource_name: 'Tributary MCP endpoint',
    resource_documentation: `${base}/llms.txt`,
  });

  const doc = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  const oauthDoc = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_OAUTH_METADATA });
  const resourcePaths = [
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/api/mcp',
  ];
  r.options(['/.well-known/mcp', '/llms.txt'], doc);
  r.options(resourcePaths, oauthDoc);

  r.get('/.well-known/mcp', doc, async (_req, res) => {
    const instance = await ctx.services.instance.read.get();
    res.json({
      name: instance?.name ?? 'Tributary',
      role: instance?.role ?? null,
      endpoint,
      transport: 'streamable-http',
      protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
      authentication: {
        methods: [
          { type: 'bearer', kind: 'scoped', header: 'Authorization', issue: `${base}/api/mcp/token` },
          ...(o.staticTokenConfigured ? [{ type: 'bearer', kind: 'static', header: 'Authorization' }] : []),
          { type: 'oauth2', authorizationServerMetadata: `${base}/.well-known/oauth-authorization-server` },
          { type: 'session', cookie: true },
        ],
        tokenEndpoint: `${base}/api/mcp/token`,
        revocationEndpoint: `${base}/api/mcp/token/revoke`,
        protectedResourceMetadata: resourceMetadataUrl(base),
      },
      scopes: supportedScopes(),
      tools: tools(),
      documentation: `${base}/llms.txt`,
    });
  });
  // RFC 9728 §3.1: the metadata of resource `<base>/api/mcp` may also be asked for with the path appended.
  r.get(resourcePaths, oauthDoc, (_req, res) => {
    res.json(protectedResource());
  });

  r.get('/llms.txt', doc, async (_req, res) => {
    const instance = await ctx.services.instance.read.get();
    const lines = [
      `# ${instance?.name ?? 'Tributary'}`,
      '',
      `> A Tributary instance (${instance?.role ?? 'starting'}): a federated server where every change is a signed event in one append-only log.`,
      '> Agents use it through MCP (Model Context Protocol).',
      '',
      '## Connect',
      '',
      `- MCP endpoint: ${endpoint} (Streamable HTTP, POST only, JSON responses, no session id)`,
      '- Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`; one JSON-RPC message per request (no batches).',
      '- Authenticate with `Authorization: Bearer <token>`. Tokens are read from that header only.',
      `- A signed-in person issues a scoped token with POST ${base}/api/mcp/token {label, scopes, targetAgentId?, lifetimeSeconds?};`,
      `  lists them with GET ${base}/api/mcp/token and revokes one with POST ${base}/api/mcp/token/revoke {jti}.`,
      '- Scopes are `svc.<area>.<read|write>` plus separately granted `svc.wallet.read`, `svc.wallet.spend`, `svc.account.export`, `svc.admin`.',
      '- `targetAgentId` selects which of your agents or personas a tool acts for.',
      '- Every call is written to a provenance log; `svc.audit.recent` shows yours.',
      `- Discovery: ${base}/.well-known/mcp, ${resourceMetadataUrl(base)}`,
      '',
      '## Tools',
      '',
      ...tools().map(
        (t) =>
          `- ${t.name}: ${t.description} (scopes: ${t.scopes.join(' ')}; for: ${t.enabledFor.join(', ')})`,
      ),
      '',
    ];
    res.type('text/plain; charset=utf-8').send(lines.join('\n'));
  });
  return r;
}
