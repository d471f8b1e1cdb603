// Agent access (docs/agent-access.md): the static MCP token's scopes (the token is in
// secrets.ts) and the browser origins that may call /api/mcp.
import { isValidScope } from '@tributary/domain';
import { z } from 'zod';

export const agentAccessVariables = {
  LEGACY_UNSCOPED_SUNSET: z.string().datetime({ offset: true }).optional(),
  // The static token's scopes (space or comma separated); unset or blank: every svc.<area>.<read|write>
  // scope the catalogue's tools use, never the separately granted ones.
  AIAGENT_MCP_SCOPES: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim().split(/[\s,]+/) : undefined))
    .refine(
      (v) => !v || v.every(isValidScope),
      'AIAGENT_MCP_SCOPES: every entry must be a scope (svc.<area>.<read|write>, …)',
    ),
  // Browser origins besides BASE_URL's that may call /api/mcp (comma separated), e.g. an MCP inspector.
  MCP_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.split(',').map((o) => o.trim().replace(/\/+$/, '')) : []))
    .refine(
      (v) => v.every((o) => URL.canParse(o) && new URL(o).origin === o),
      'MCP_ALLOWED_ORIGINS: comma-separated origins like https://app.example',
    ),
};
