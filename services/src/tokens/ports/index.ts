// The agent-access area's ports and reads, filled in infra/src/compose/compose-tokens.ts.
import type { AccessTokens } from './access-tokens.js';
import type { AgentAccessReadModels } from './agent-access-read-models.js';

export * from './access-tokens.js';
export * from './agent-access-read-models.js';

/** The agent-access area's ports. */
export interface TokensPorts {
  read: AgentAccessReadModels;
  /** Mints scoped MCP tokens; absent where no MCP endpoint is served (token issue then says so). */
  accessTokens?: AccessTokens | undefined;
}

/** What the tokens area adds to the core services. */
export interface TokensServices {
  tokens: TokensPorts;
}
