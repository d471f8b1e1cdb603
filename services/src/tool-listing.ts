// What an MCP caller is shown: derived from the catalogue with the same check `execute` applies.
import { LEGACY_UNSCOPED, SEPARATE_SCOPES } from '@tributary/domain';
import { mcpTools } from './catalogue.js';
import type { Operation } from './pipeline/operation.js';
import type { Principal } from './pipeline/principal.js';
import { accessDenial, type AccessContext } from './pipeline/tool-access.js';

/** The tools `principal` may call over MCP (enabledFor, scopes, operator-only), in catalogue order. */
export const toolsFor = (principal: Principal, ctx: AccessContext): Operation<unknown, unknown>[] =>
  mcpTools().filter((op) => accessDenial(op, principal, 'mcp', ctx) === null);

const separate = new Set<string>([...SEPARATE_SCOPES, LEGACY_UNSCOPED]);

/** Every `svc.<area>.<read|write>` scope the catalogue's tools use: the static token's default grant. */
export const catalogueAreaScopes = (): string[] =>
  [...new Set(mcpTools().flatMap((op) => op.scopes))].filter((s) => !separate.has(s)).sort();

/** Every scope a token can usefully carry today (for discovery documents). */
export const supportedScopes = (): string[] =>
  [...new Set([...catalogueAreaScopes(), ...SEPARATE_SCOPES])].sort();

export { DEFAULT_OAUTH_SCOPES } from './oauth/index.js';
