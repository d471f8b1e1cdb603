// The agent-access area's ports: scoped MCP tokens, signed with the instance key, for this instance's
// MCP endpoint only.
import { defineArea } from './area.js';
import { createJwtAccessTokens } from '@tributary/adapters';
import type { TokensPorts } from '@tributary/services';
import type { KeyObject } from 'node:crypto';
import type { Config } from '../config/config.js';

export function composeTokens(o: {
  config: Config;
  key: { privateKey: KeyObject; publicKey: KeyObject };
  keyId: string;
}): Omit<TokensPorts, 'read'> {
  return {
    accessTokens: createJwtAccessTokens({
      privateKey: o.key.privateKey,
      publicKey: o.key.publicKey,
      keyId: o.keyId,
      issuer: o.config.BASE_URL,
      audience: `${o.config.BASE_URL}/api/mcp`,
    }),
  };
}

/** The agent-access area: MCP tokens on the key file's own key, and their reads. */
export const tokensArea = defineArea((ctx) => ({
  services: {
    tokens: {
      ...composeTokens({ config: ctx.config, key: ctx.key, keyId: ctx.ring.base.keyId }),
      read: ctx.read.tokens,
    },
  },
  // When the `svc.legacy.unscoped` wildcard stops being honoured.
  config: { legacyUnscopedSunset: ctx.config.LEGACY_UNSCOPED_SUNSET },
}));
